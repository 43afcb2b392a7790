package io.lifeline.domain.job.goodput;

/**
 * Splits one job's wall-clock time into {@link Bucket}s, in integer milliseconds so that the buckets add
 * up to wall time exactly.
 *
 * <p>The ledger has a clock and a current activity: {@link #advanceTo} accrues the time since the last
 * tick to the activity, {@link #switchTo} changes it. Time only moves forward: the caller passes
 * {@code max(event time, clock)}, so a late event is accounted at the watermark and never makes a bucket
 * negative. Reclassifications ({@link #move}) shift already accrued time between buckets and are capped by
 * what the source bucket holds. GPU-milliseconds (milliseconds × GPUs held at the time) are kept beside
 * each bucket to price time in GPU-hours.
 */
public final class GoodputLedger {

    private static final int N = Bucket.values().length;

    private final long[] millis = new long[N];
    private final long[] gpuMillis = new long[N];
    private long startMs;
    private long clockMs;
    private Bucket activity;
    private int gpus;

    /**
     * @param startMs   when the job's wall time starts (submission)
     * @param activity  what the job is doing from then on
     */
    public GoodputLedger(long startMs, Bucket activity) {
        this.startMs = startMs;
        this.clockMs = startMs;
        this.activity = activity;
    }

    /** The ledger's state as plain values. */
    public SavedLedger save() {
        return new SavedLedger(Bucket.nonZero(millis), Bucket.nonZero(gpuMillis), startMs, clockMs, activity, gpus);
    }

    /** A ledger in the state {@link #save()} gave. */
    public static GoodputLedger restore(SavedLedger s) {
        GoodputLedger l = new GoodputLedger(s.startMs(), s.activity());
        Bucket.fill(l.millis, s.millis());
        Bucket.fill(l.gpuMillis, s.gpuMillis());
        l.clockMs = s.clockMs();
        l.gpus = s.gpus();
        return l;
    }

    /**
     * Accrues the time from the clock up to {@code t} to the current activity.
     *
     * @return the milliseconds accrued (0 when {@code t} is not after the clock or the ledger is stopped)
     */
    public long advanceTo(long t) {
        if (activity == null || t <= clockMs) {
            return 0;
        }
        long d = t - clockMs;
        millis[activity.ordinal()] += d;
        gpuMillis[activity.ordinal()] += d * gpus;
        clockMs = t;
        return d;
    }

    /** Sets what the job does from the clock on, and how many GPUs it holds meanwhile. */
    public void switchTo(Bucket next, int gpusHeld) {
        if (next == Bucket.LOST_REWORK) {
            throw new IllegalArgumentException("lost rework is a reclassification, never an activity");
        }
        if (activity != null) {
            this.activity = next;
        }
        this.gpus = Math.max(0, gpusHeld);
    }

    /** Stops the wall clock for good (the job ended). */
    public void stop() {
        activity = null;
    }

    public boolean stopped() {
        return activity == null;
    }

    /**
     * Moves the wall-time start earlier (a submission event arrived after later events); the added time
     * is waiting, since nothing of the job had happened yet.
     */
    public void extendStartTo(long earlierMs) {
        if (earlierMs < startMs) {
            millis[Bucket.WAITING.ordinal()] += startMs - earlierMs;
            startMs = earlierMs;
        }
    }

    /**
     * Moves accrued time from one bucket to another, capped by what {@code from} holds.
     *
     * @return what was moved
     */
    public ProductiveMark move(Bucket from, Bucket to, long ms, long gpuMs) {
        long m = Math.max(0, Math.min(ms, millis[from.ordinal()]));
        long g = Math.max(0, Math.min(gpuMs, gpuMillis[from.ordinal()]));
        millis[from.ordinal()] -= m;
        millis[to.ordinal()] += m;
        gpuMillis[from.ordinal()] -= g;
        gpuMillis[to.ordinal()] += g;
        return new ProductiveMark(m, g);
    }

    /** The cumulative productive time now. */
    public ProductiveMark productive() {
        return new ProductiveMark(millis[Bucket.PRODUCTIVE.ordinal()], gpuMillis[Bucket.PRODUCTIVE.ordinal()]);
    }

    public long clockMs() {
        return clockMs;
    }

    public long startMs() {
        return startMs;
    }

    public Bucket activity() {
        return activity;
    }

    public int gpus() {
        return gpus;
    }

    /** Milliseconds between the clock and {@code nowMs} that a view at {@code nowMs} adds to the activity. */
    public long pendingMillis(long nowMs) {
        return activity == null ? 0 : Math.max(0, nowMs - clockMs);
    }

    /** Accrued milliseconds in one bucket (without the pending time up to now). */
    public long millis(Bucket b) {
        return millis[b.ordinal()];
    }

    /** Accrued GPU-milliseconds in one bucket. */
    public long gpuMillis(Bucket b) {
        return gpuMillis[b.ordinal()];
    }

    /** The buckets as of {@code nowMs}: the time since the clock is added to the current activity. */
    public GoodputView view(long nowMs) {
        long[] ms = millis.clone();
        long[] gms = gpuMillis.clone();
        long pending = pendingMillis(nowMs);
        if (pending > 0) {
            ms[activity.ordinal()] += pending;
            gms[activity.ordinal()] += pending * gpus;
        }
        return GoodputView.of(ms, gms);
    }
}
