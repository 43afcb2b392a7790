package io.lifeline.domain.job.incident;

import java.util.Arrays;

/**
 * One interruption's cost by {@link RecoveryPhase}: milliseconds on the job's accounting clock (so they agree with
 * its goodput buckets) and GPU-milliseconds (milliseconds × GPUs held; nothing while the job waited off its nodes).
 * An incident gives its own ({@link Incident#phaseSplit()}); the phases add up to its hang, recovery, waiting and
 * lost rework.
 */
public final class PhaseSplit {

    private static final int N = RecoveryPhase.values().length;

    private final long[] millis;
    private final long[] gpuMillis;

    private PhaseSplit(long[] millis, long[] gpuMillis) {
        this.millis = millis;
        this.gpuMillis = gpuMillis;
    }

    /**
     * A split from its values, in the order of {@link RecoveryPhase#values()}.
     *
     * @throws IllegalArgumentException unless both arrays have one non-negative value per phase
     */
    public static PhaseSplit of(long[] millis, long[] gpuMillis) {
        if (millis.length != N || gpuMillis.length != N) {
            throw new IllegalArgumentException("a split needs one value per phase (" + N + ")");
        }
        for (int i = 0; i < N; i++) {
            if (millis[i] < 0 || gpuMillis[i] < 0) {
                throw new IllegalArgumentException("phase times are never negative");
            }
        }
        return new PhaseSplit(millis.clone(), gpuMillis.clone());
    }

    /** Milliseconds spent in {@code p}. */
    public long millis(RecoveryPhase p) {
        return millis[p.ordinal()];
    }

    /** GPU-milliseconds spent in {@code p}. */
    public long gpuMillis(RecoveryPhase p) {
        return gpuMillis[p.ordinal()];
    }

    /** Milliseconds of every phase together. */
    public long totalMillis() {
        return Arrays.stream(millis).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PhaseSplit s && Arrays.equals(millis, s.millis) && Arrays.equals(gpuMillis, s.gpuMillis);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(millis) + Arrays.hashCode(gpuMillis);
    }

    @Override
    public String toString() {
        return "PhaseSplit" + Arrays.toString(millis) + " ms, " + Arrays.toString(gpuMillis) + " GPU-ms";
    }
}
