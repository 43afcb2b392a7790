package io.lifeline.ingest;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks the few telemetry events that the event log must keep so that replaying it rebuilds the same model:
 * the first progress of a job after any of its lifecycle events (progress is what moves a recovering job back
 * to running), GPU samples whose health counters changed or that run hot, and one sample per job or GPU per
 * interval. It also remembers the latest telemetry not stored, per job and per GPU (bounded by the fleet's
 * size), so a graceful stop can store it and a restart sees the same latest values.
 */
final class TelemetrySampler {

    private static final double HOT_CELSIUS = 85;

    private final long intervalMillis;
    private final ConcurrentHashMap<String, Mark> marks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Boolean> lifecycleSinceProgress = new ConcurrentHashMap<>();

    TelemetrySampler(Duration interval) {
        this.intervalMillis = interval.toMillis();
    }

    /** A lifecycle event of {@code subject} was accepted: its next progress is stored. */
    void lifecycle(String subject) {
        lifecycleSinceProgress.put(subject, Boolean.TRUE);
    }

    /** Whether this telemetry event should also be stored; remembers it as the latest of its key either way. */
    boolean shouldStore(Event e) {
        String key = key(e);
        boolean[] store = new boolean[1];
        marks.compute(key, (k, old) -> {
            boolean due = old == null || e.time().toEpochMilli() - old.storedAtMillis >= intervalMillis
                    || changedHealth(old.lastStored, e) || hot(e)
                    || e.data() instanceof io.lifeline.domain.event.TrainerData.Progress
                    && lifecycleSinceProgress.remove(e.subject()) != null;
            store[0] = due;
            if (due) {
                return new Mark(e.time().toEpochMilli(), e, null);
            }
            return new Mark(old.storedAtMillis, old.lastStored, e);
        });
        return store[0];
    }

    /** The latest telemetry of every job and GPU that is not stored yet (and forgets it). */
    List<Event> drainUnstored() {
        List<Event> out = new ArrayList<>();
        marks.replaceAll((k, m) -> {
            if (m.unstored != null) {
                out.add(m.unstored);
                return new Mark(m.unstored.time().toEpochMilli(), m.unstored, null);
            }
            return m;
        });
        return out;
    }

    private static String key(Event e) {
        return e.data() instanceof GpuData g ? "gpu:" + g.uuid() : "job:" + e.subject();
    }

    private static boolean hot(Event e) {
        return e.data() instanceof GpuData.Sample s && s.temperatureCelsius() != null
                && s.temperatureCelsius() >= HOT_CELSIUS;
    }

    private static boolean changedHealth(Event before, Event now) {
        if (!(before.data() instanceof GpuData.Sample a) || !(now.data() instanceof GpuData.Sample b)) {
            return false;
        }
        return !Objects.equals(a.eccDbeVolatile(), b.eccDbeVolatile())
                || !Objects.equals(a.eccSbeVolatile(), b.eccSbeVolatile())
                || !Objects.equals(a.rowRemapFailures(), b.rowRemapFailures())
                || !Objects.equals(a.nvlinkErrors(), b.nvlinkErrors())
                || !Objects.equals(a.lastXid(), b.lastXid());
    }

    /** Per key: when it was last stored, that event, and the newest event since that was not stored. */
    private record Mark(long storedAtMillis, Event lastStored, Event unstored) {
    }
}
