package io.lifeline.bench;

import java.util.Arrays;

/**
 * Percentiles of a set of latencies, by the nearest-rank method: the p-th percentile is the smallest value that at
 * least p of the values do not exceed (so the p99 of 100 values is the 99th smallest, never an interpolation).
 */
public final class LatencySummary {

    private final long[] sorted;

    /** @param nanos the latencies, in any order (copied) */
    public LatencySummary(long[] nanos) {
        this.sorted = nanos.clone();
        Arrays.sort(sorted);
    }

    public int count() {
        return sorted.length;
    }

    /** The p-th percentile (0 &lt; p &lt;= 1) in milliseconds, or 0 without values. */
    public double percentileMs(double p) {
        if (p <= 0 || p > 1) {
            throw new IllegalArgumentException("percentile must be in (0, 1], got " + p);
        }
        if (sorted.length == 0) {
            return 0;
        }
        // The epsilon keeps a product that floating point puts a hair above a whole number from rounding up a rank.
        int rank = (int) Math.ceil(p * sorted.length - 1e-9);
        return sorted[Math.max(rank, 1) - 1] / 1e6;
    }

    public double maxMs() {
        return sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6;
    }
}
