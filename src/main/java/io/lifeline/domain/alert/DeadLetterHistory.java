package io.lifeline.domain.alert;

import java.time.Instant;

/**
 * Recent samples of the dead-letter counter, to tell how many events were dead-lettered within a window. A ring of
 * at most {@code capacity} (time, total) samples: memory is fixed whatever the evaluation interval.
 */
final class DeadLetterHistory {

    private final long[] times;
    private final long[] totals;
    private int size;
    private int next;

    DeadLetterHistory(int capacity) {
        times = new long[capacity];
        totals = new long[capacity];
    }

    void record(Instant at, long total) {
        times[next] = at.toEpochMilli();
        totals[next] = total;
        next = (next + 1) % times.length;
        if (size < times.length) {
            size++;
        }
    }

    /**
     * Events dead-lettered since {@code from}: the latest total minus the oldest sample at or after {@code from}
     * (or the newest before it, which covers the window best). A counter that went down (a restart) counts from zero.
     */
    long increaseSince(Instant from) {
        if (size == 0) {
            return 0;
        }
        long cut = from.toEpochMilli();
        int newest = (next - 1 + times.length) % times.length;
        long base = -1;
        long baseTime = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            int idx = (next - size + i + times.length) % times.length;
            if (times[idx] <= cut && times[idx] >= baseTime) {
                baseTime = times[idx];
                base = totals[idx];
            }
        }
        if (base < 0) {
            int oldest = (next - size + times.length) % times.length;
            base = totals[oldest];
        }
        long latest = totals[newest];
        return latest >= base ? latest - base : latest;
    }
}
