package io.lifeline.ingest;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.TrainerData;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Picks the few telemetry events that the event log must keep so that replaying it rebuilds the same model:
 * the first progress of a job after any of its lifecycle events (progress is what moves a recovering job back
 * to running), GPU samples whose health counters changed or that run hot, and one sample per job or GPU per
 * interval. It also remembers the latest telemetry not stored, per job and per GPU, so a graceful stop can store
 * it and a restart sees the same latest values.
 *
 * <p>Memory: one mark per job and per GPU heard from within {@code forgetAfter}. Spot churn brings new node names
 * and GPU uuids all the time, and a reclaimed node or an ended job sends nothing more, so a mark not touched for
 * that long is forgotten, whatever way its subject left (a termination, a lost terminal event, a stray subject).
 * Forgetting costs at most one extra stored sample should the subject speak again. The sweep is incremental: each
 * call looks at a few marks, which covers the whole map faster than calls can add marks, with no full scan on any
 * one call.
 */
final class TelemetrySampler {

    private static final double HOT_CELSIUS = 85;
    /** Marks looked at per call: more than one, so the sweep outruns the marks that calls create. */
    static final int SWEEP_STEP = 2;

    private final long intervalMillis;
    private final long forgetAfterMillis;
    private final Clock clock;
    private final ConcurrentHashMap<String, Mark> marks = new ConcurrentHashMap<>();
    private final ReentrantLock sweeping = new ReentrantLock();
    /** Where the sweep stands; guarded by {@link #sweeping}. */
    private Iterator<Map.Entry<String, Mark>> sweep;

    /**
     * @param interval     one sample per job or GPU per interval is stored
     * @param forgetAfter  a job or GPU silent this long is forgotten (at least twice {@code interval})
     * @param clock        when marks were last touched
     */
    TelemetrySampler(Duration interval, Duration forgetAfter, Clock clock) {
        this.intervalMillis = interval.toMillis();
        this.forgetAfterMillis = Math.max(forgetAfter.toMillis(), 2 * intervalMillis);
        this.clock = clock;
    }

    /** A lifecycle event was accepted: if it is a job's, the job's next progress is stored. */
    void lifecycle(Event e) {
        if (e.type().family().subjectIsNode()) {
            return;
        }
        long now = clock.millis();
        marks.compute(jobKey(e.subject()), (k, old) -> old == null
                ? new Mark(Long.MIN_VALUE, null, null, true, now)
                : new Mark(old.storedAtMillis, old.lastStored, old.unstored, true, now));
        sweepSome(now);
    }

    /** Whether this telemetry event should also be stored; remembers it as the latest of its key either way. */
    boolean shouldStore(Event e) {
        long now = clock.millis();
        boolean[] store = new boolean[1];
        marks.compute(key(e), (k, old) -> {
            boolean due = old == null || old.lastStored == null
                    || e.time().toEpochMilli() - old.storedAtMillis >= intervalMillis
                    || changedHealth(old.lastStored, e) || hot(e)
                    || old.progressDue && e.data() instanceof TrainerData.Progress;
            store[0] = due;
            if (due) {
                return new Mark(e.time().toEpochMilli(), e, null, false, now);
            }
            return new Mark(old.storedAtMillis, old.lastStored, e, old.progressDue, now);
        });
        sweepSome(now);
        return store[0];
    }

    /** The latest telemetry of every job and GPU that is not stored yet (and forgets it). */
    List<Event> drainUnstored() {
        List<Event> out = new ArrayList<>();
        marks.replaceAll((k, m) -> {
            if (m.unstored != null) {
                out.add(m.unstored);
                return new Mark(m.unstored.time().toEpochMilli(), m.unstored, null, m.progressDue, m.touchedMillis);
            }
            return m;
        });
        return out;
    }

    /** Jobs and GPUs remembered now. */
    int size() {
        return marks.size();
    }

    /** Looks at the next few marks and forgets those silent too long; skipped while another thread sweeps. */
    private void sweepSome(long now) {
        if (!sweeping.tryLock()) {
            return;
        }
        try {
            for (int i = 0; i < SWEEP_STEP; i++) {
                if (sweep == null || !sweep.hasNext()) {
                    sweep = marks.entrySet().iterator();
                    if (!sweep.hasNext()) {
                        return;
                    }
                }
                Map.Entry<String, Mark> entry = sweep.next();
                Mark m = entry.getValue();
                if (now - m.touchedMillis >= forgetAfterMillis) {
                    // Only if untouched since it was read: a mark is replaced by a new record on every touch.
                    marks.remove(entry.getKey(), m);
                }
            }
        } finally {
            sweeping.unlock();
        }
    }

    private static String key(Event e) {
        return e.data() instanceof GpuData g ? "gpu:" + g.uuid() : jobKey(e.subject());
    }

    private static String jobKey(String subject) {
        return "job:" + subject;
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

    /**
     * Per key: when it was last stored, that event (null before the first), the newest event since that was not
     * stored, whether a lifecycle event since asks for the next progress to be stored, and when the key was last
     * touched (clock milliseconds).
     */
    private record Mark(long storedAtMillis, Event lastStored, Event unstored, boolean progressDue,
                        long touchedMillis) {
    }
}
