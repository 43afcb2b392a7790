package io.lifeline.demo.runtime;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A demo journal in memory, for tests that restart a runner within one JVM. */
public final class MemoryJournal implements DemoJournal {

    private Stored stored;
    private final List<Entry> calls = new ArrayList<>();
    private int begun;

    @Override
    public synchronized Optional<Stored> load() {
        return stored == null
                ? Optional.empty()
                : Optional.of(new Stored(stored.scenario(), stored.start(), stored.mark(), List.copyOf(calls)));
    }

    @Override
    public synchronized void begin(String scenario, Instant start) {
        stored = new Stored(scenario, start, null, List.of());
        calls.clear();
        begun++;
    }

    @Override
    public synchronized void write(List<Entry> more, Mark mark) {
        for (Entry e : more) {
            if (e.seq() == calls.size()) {
                calls.add(e);
            }
        }
        if (mark != null) {
            stored = new Stored(stored.scenario(), stored.start(), mark, List.of());
        }
    }

    /** How many runs were started. */
    public synchronized int runsBegun() {
        return begun;
    }

    /** The calls kept so far. */
    public synchronized List<Entry> calls() {
        return List.copyOf(calls);
    }
}
