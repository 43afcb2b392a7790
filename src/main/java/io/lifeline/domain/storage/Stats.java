package io.lifeline.domain.storage;

import java.util.ArrayList;
import java.util.List;

/** Median and low percentile of small samples (a few hundred values at most, sorted on read). */
final class Stats {

    private Stats() {}

    static double median(List<Double> values) {
        List<Double> s = sorted(values);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
    }

    /** The {@code p}-th percentile (0..100) by nearest rank: the smallest value with at least p % at or below it. */
    static double percentile(List<Double> values, double p) {
        List<Double> s = sorted(values);
        int rank = (int) Math.ceil(p / 100.0 * s.size());
        return s.get(Math.max(0, Math.min(s.size() - 1, rank - 1)));
    }

    private static List<Double> sorted(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> s = new ArrayList<>(values);
        s.sort(null);
        return s;
    }
}
