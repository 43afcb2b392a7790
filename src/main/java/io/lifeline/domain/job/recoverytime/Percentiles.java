package io.lifeline.domain.job.recoverytime;

/**
 * Nearest-rank percentiles: the q-th of n sorted values is the value at rank ⌈q·n⌉ (1-based), always one of the
 * values, never an interpolation, so a person checks it by counting.
 */
final class Percentiles {

    private Percentiles() {}

    /** The {@code q}-th percentile ({@code 0 < q ≤ 1}) of {@code sorted}, ascending and not empty. */
    static long nearestRank(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }
}
