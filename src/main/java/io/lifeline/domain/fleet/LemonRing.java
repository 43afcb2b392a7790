package io.lifeline.domain.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * The times of a node's most recent interruptions, in a ring of at most {@code capacity} timestamps: the lemon
 * score counts those inside a sliding window. Memory is bounded; a node interrupted more than {@code capacity}
 * times within the window scores {@code capacity} (the score saturates).
 */
final class LemonRing {

    /** The cause code of an interruption the reliability counts do not count again (the outage a notice announced). */
    static final byte FOLLOW_UP = -1;

    private final long[] times;
    /** Per entry: the {@code InterruptionCause} ordinal, or {@link #FOLLOW_UP}. */
    private final byte[] causes;

    private final String[] details;
    private int size;
    private int next;

    LemonRing(int capacity) {
        times = new long[capacity];
        causes = new byte[capacity];
        details = new String[capacity];
    }

    void record(long millis) {
        record(millis, FOLLOW_UP, null);
    }

    void record(long millis, byte cause, String detail) {
        times[next] = millis;
        causes[next] = cause;
        details[next] = detail;
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

    /** The recorded entries as (time, cause code, detail), oldest first, in the order of {@link #chronological()}. */
    List<Entry> entries() {
        List<Entry> out = new ArrayList<>(size);
        int first = size < times.length ? 0 : next;
        for (int i = 0; i < size; i++) {
            int j = (first + i) % times.length;
            out.add(new Entry(times[j], causes[j], details[j]));
        }
        return out;
    }

    /** One recorded interruption. */
    record Entry(long millis, byte cause, String detail) {}

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
