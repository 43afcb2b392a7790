package io.lifeline.demo.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the demo fleet keeps so that a restart continues it where the stored history left it: the run (its scenario
 * and simulated start), every {@link SimCall} made on it in order with the simulated time it was made at, and how far
 * its events reached ingest. The simulator is deterministic, so the same scenario, start and calls rebuild the same
 * fleet: the same nodes, jobs at the same steps, the same checkpoints, and no scripted interruption happens twice.
 */
public interface DemoJournal {

    /** A journal that keeps nothing: each start is a new run. */
    DemoJournal NONE = new DemoJournal() {
        @Override
        public Optional<Stored> load() {
            return Optional.empty();
        }

        @Override
        public void begin(String scenario, Instant start) {}

        @Override
        public void write(List<Entry> calls, Mark mark) {}
    };

    /**
     * A call made on the fleet.
     *
     * @param seq  its place in the run's order of calls, from 0
     * @param at   the fleet's time when it was made ({@code FleetSimulator.now()})
     */
    record Entry(long seq, Instant at, SimCall call) {}

    /**
     * How far the fleet's events reached ingest.
     *
     * @param settled   events of the run handed over so far (taken by ingest, or given up after repeated failures)
     * @param through   the fleet's time up to which it had produced them
     * @param lastEvent the last of them, described ({@link DemoRunner#describe}), to check a rebuild against
     */
    record Mark(long settled, Instant through, String lastEvent) {}

    /**
     * The stored run.
     *
     * @param scenario what the run simulates (a digest of its scenario)
     * @param start    its simulated start
     * @param mark     how far its events reached ingest, or null before any did
     * @param calls    its calls, in order
     */
    record Stored(String scenario, Instant start, Mark mark, List<Entry> calls) {}

    /** The stored run, if any. */
    Optional<Stored> load();

    /** Starts a new run, forgetting the stored one. */
    void begin(String scenario, Instant start);

    /** Appends calls (in order) and moves the mark (when not null), all or nothing. */
    void write(List<Entry> calls, Mark mark);
}
