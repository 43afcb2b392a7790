package io.lifeline.domain.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * The times of a node's most recent interruptions, in a ring of at most {@code capacity} timestamps: the lemon
 * score counts those inside a sliding window. Memory is bounded; a node interrupted more than {@code capacity}
 * times within the window scores {@code capacity} (the score saturates).
 */
final class LemonRing {

    private final long[] times;
    private int size;
    private int next;

    LemonRing(int capacity) {
        times = new long[capacity];
    }

    void record(long millis) {
        times[next] = millis;
        next = (next + 1) % times.length;
        if (size < times.length) {
            size++;
        }
    }

    /** The recorded times, oldest first: recording them in this order into an empty ring gives this ring back. */
    List<Long> chronological() {
        List<Long> out = new ArrayList<>(size);
        int first = size < times.length ? 0 : next;
        for (int i = 0; i < size; i++) {
            out.add(times[(first + i) % times.length]);
        }
        return out;
    }

    /** Interruptions at or after {@code fromMillis}. */
    int countSince(long fromMillis) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (times[i] >= fromMillis) {
                n++;
            }
        }
        return n;
    }

    /** The latest recorded interruption, or {@link Long#MIN_VALUE} when none. */
    long latest() {
        long max = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, times[i]);
        }
        return max;
    }
}
