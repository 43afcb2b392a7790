package io.lifeline.domain.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The newest {@value #CAPACITY} XIDs of one GPU (by event time), in two primitive arrays. When full, a new
 * entry replaces the oldest one, or is not kept if it is older than everything kept.
 */
final class XidHistory {

    static final int CAPACITY = 8;

    private final long[] times = new long[CAPACITY];
    private final int[] codes = new int[CAPACITY];
    private int size;

    /** Adds an occurrence; false only when it is a duplicate (same time and code). */
    /** Whether this XID at this time is held already. */
    boolean contains(long millis, int code) {
        for (int i = 0; i < size; i++) {
            if (times[i] == millis && codes[i] == code) {
                return true;
            }
        }
        return false;
    }

    boolean add(long millis, int code) {
        int oldest = 0;
        for (int i = 0; i < size; i++) {
            if (times[i] == millis && codes[i] == code) {
                return false;
            }
            if (times[i] < times[oldest]) {
                oldest = i;
            }
        }
        if (size < CAPACITY) {
            times[size] = millis;
            codes[size] = code;
            size++;
            return true;
        }
        if (millis > times[oldest]) {
            times[oldest] = millis;
            codes[oldest] = code;
        }
        return true;
    }

    /** A history holding these entries at these places (the order {@link #times()} gave). */
    static XidHistory of(List<Long> times, List<Integer> codes) {
        XidHistory h = new XidHistory();
        for (int i = 0; i < times.size(); i++) {
            h.times[i] = times.get(i);
            h.codes[i] = codes.get(i);
        }
        h.size = times.size();
        return h;
    }

    /** The entries' times in the order they are held. */
    List<Long> times() {
        List<Long> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(times[i]);
        }
        return out;
    }

    /** The entries' codes in the order they are held. */
    List<Integer> codes() {
        List<Integer> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(codes[i]);
        }
        return out;
    }

    int size() {
        return size;
    }

    /** Index of the newest entry, or -1 when empty. */
    int newest() {
        int best = -1;
        for (int i = 0; i < size; i++) {
            if (best < 0 || times[i] >= times[best]) {
                best = i;
            }
        }
        return best;
    }

    long timeAt(int i) {
        return times[i];
    }

    int codeAt(int i) {
        return codes[i];
    }

    /** Entry indexes ordered by time, oldest first. */
    int[] chronological() {
        Integer[] idx = new Integer[size];
        for (int i = 0; i < size; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> Long.compare(times[a], times[b]));
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = idx[i];
        }
        return out;
    }
}
