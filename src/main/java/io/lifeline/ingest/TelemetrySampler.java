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
 *
 * <p>Cost: this runs for every telemetry event, so a mark is changed in place under its own lock and looked up by
 * the GPU's uuid or the job's name as they come (GPUs and jobs in maps of their own), with nothing allocated for an
 * event but a new subject's mark.
 */
final class TelemetrySampler {

    private static final double HOT_CELSIUS = 85;
    /** Marks looked at per call: more than one, so the sweep outruns the marks that calls create. */
    static final int SWEEP_STEP = 2;

    private final long intervalMillis;
    private final long forgetAfterMillis;
    private final Clock clock;
    private final ConcurrentHashMap<String, Mark> gpus = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Mark> jobs = new ConcurrentHashMap<>();
    private final ReentrantLock sweeping = new ReentrantLock();
    /** Where the sweep stands, and in which of the two maps; guarded by {@link #sweeping}. */
    private Iterator<Map.Entry<String, Mark>> sweep;

    private ConcurrentHashMap<String, Mark> swept;

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
        boolean done = false;
        while (!done) {
            Mark m = mark(jobs, e.subject());
            synchronized (m) {
                // A mark the sweep forgot meanwhile is out of the map: take the new one.
                if (!m.forgotten) {
                    m.progressDue = true;
                    m.touchedMillis = now;
                    done = true;
                }
            }
        }
        sweepSome(now);
    }

    /** Whether this telemetry event should also be stored; remembers it as the latest of its key either way. */
    boolean shouldStore(Event e) {
        long now = clock.millis();
        Boolean due = null;
        while (due == null) {
            Mark m = e.data() instanceof GpuData g ? mark(gpus, g.uuid()) : mark(jobs, e.subject());
            synchronized (m) {
                if (!m.forgotten) {
                    due = m.take(e, now, intervalMillis);
                }
            }
        }
        sweepSome(now);
        return due;
    }

    private static Mark mark(ConcurrentHashMap<String, Mark> marks, String key) {
        Mark m = marks.get(key);
        if (m != null) {
            return m;
        }
        Mark fresh = new Mark();
        Mark raced = marks.putIfAbsent(key, fresh);
        return raced == null ? fresh : raced;
    }

    /** The latest telemetry of every job and GPU that is not stored yet (and forgets it). */
    List<Event> drainUnstored() {
        List<Event> out = new ArrayList<>();
        for (ConcurrentHashMap<String, Mark> marks : List.of(gpus, jobs)) {
            for (Mark m : marks.values()) {
                synchronized (m) {
                    if (m.unstored != null && !m.forgotten) {
                        out.add(m.unstored);
                        m.stored(m.unstored);
                    }
                }
            }
        }
        return out;
    }

    /** Jobs and GPUs remembered now. */
    int size() {
        return gpus.size() + jobs.size();
    }

    /** Looks at the next few marks and forgets those silent too long; skipped while another thread sweeps. */
    private void sweepSome(long now) {
        if (!sweeping.tryLock()) {
            return;
        }
        try {
            for (int i = 0; i < SWEEP_STEP; i++) {
                if (!nextToSweep()) {
                    return;
                }
                Map.Entry<String, Mark> entry = sweep.next();
                Mark m = entry.getValue();
                synchronized (m) {
                    if (!m.forgotten && now - m.touchedMillis >= forgetAfterMillis) {
                        m.forgotten = true;
                        swept.remove(entry.getKey(), m);
                    }
                }
            }
        } finally {
            sweeping.unlock();
        }
    }

    /** Whether the sweep has a mark to look at: the rest of the map it is in, else the other map from its start. */
    @SuppressWarnings("ReferenceEquality") // which of the two maps, not their contents
    private boolean nextToSweep() {
        if (sweep != null && sweep.hasNext()) {
            return true;
        }
        for (int turn = 0; turn < 2; turn++) {
            swept = swept == gpus ? jobs : gpus;
            sweep = swept.entrySet().iterator();
            if (sweep.hasNext()) {
                return true;
            }
        }
        return false;
    }

    private static boolean hot(Event e) {
        return e.data() instanceof GpuData.Sample s
                && s.temperatureCelsius() != null
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
     * Per job or GPU: when it was last stored, that event (null before the first), the newest event since that was
     * not stored, whether a lifecycle event since asks for the next progress to be stored, when it was last touched
     * (clock milliseconds), and whether the sweep has forgotten it (out of its map: a thread that still holds it takes
     * a new one). Read and changed only under its own lock.
     */
    private static final class Mark {
        private long storedAtMillis;
        private Event lastStored;
        private Event unstored;
        private boolean progressDue;
        private long touchedMillis;
        private boolean forgotten;

        /** Takes a telemetry event: whether it is to be stored. */
        boolean take(Event e, long now, long intervalMillis) {
            boolean due = lastStored == null
                    || e.time().toEpochMilli() - storedAtMillis >= intervalMillis
                    || changedHealth(lastStored, e)
                    || hot(e)
                    || progressDue
                            && (e.data() instanceof TrainerData.Progress
                                    || e.data() instanceof TrainerData.StatusReport);
            if (due) {
                stored(e);
                progressDue = false;
            } else {
                unstored = e;
            }
            touchedMillis = now;
            return due;
        }

        void stored(Event e) {
            storedAtMillis = e.time().toEpochMilli();
            lastStored = e;
            unstored = null;
        }
    }
}
