package io.lifeline.domain.job.support;

import java.util.ArrayList;
import java.util.List;

/** Medians of measured durations. */
public final class Medians {

    private Medians() {}

    /** The median of {@code values} (not empty). */
    public static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }
}
