package io.lifeline.ui.data;

import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Duration;
import java.time.Instant;

/**
 * The fleet's cumulative productive and held time, sampled once a minute into a ring of a week, so the ETTR of
 * the last 24 hours or 7 days is the ratio of the differences. Bounded: one week of minutes.
 */
public final class EttrHistory {

    /** ETTR over a window, and how much of the window the history covers. */
    public record Window(Double ettr, Duration covered, Duration asked) {

        /** Whether the history covers the whole window. */
        public boolean complete() {
            return !covered.minus(asked).isNegative();
        }
    }

    private static final int CAPACITY = 7 * 24 * 60 + 1;
    private static final long MINUTE = 60_000;
    private static final long MIN_COVERED = 15 * MINUTE;

    private final long[] at = new long[CAPACITY];
    private final long[] productive = new long[CAPACITY];
    private final long[] active = new long[CAPACITY];
    private int size;
    private int head;

    /** Records a sample unless one was recorded less than a minute ago. */
    public synchronized void record(Instant now, GoodputView fleet) {
        long t = now.toEpochMilli();
        if (size > 0 && t - at[(head + size - 1) % CAPACITY] < MINUTE) {
            return;
        }
        int slot;
        if (size < CAPACITY) {
            slot = (head + size) % CAPACITY;
            size++;
        } else {
            slot = head;
            head = (head + 1) % CAPACITY;
        }
        at[slot] = t;
        productive[slot] = fleet.productiveMillis();
        active[slot] = fleet.wallMillis() - fleet.waitingMillis();
    }

    /**
     * ETTR over the {@code window} ending at {@code now}, against the current cumulative values. Falls back to the
     * all-time ratio when there is no usable sample (for example right after start, or when jobs left the model).
     */
    public synchronized Window window(Instant now, Duration window, GoodputView fleet) {
        long from = now.toEpochMilli() - window.toMillis();
        int oldest = -1;
        for (int i = 0; i < size; i++) {
            int slot = (head + i) % CAPACITY;
            if (at[slot] >= from) {
                oldest = slot;
                break;
            }
        }
        long activeNow = fleet.wallMillis() - fleet.waitingMillis();
        if (oldest >= 0) {
            long dp = fleet.productiveMillis() - productive[oldest];
            long da = activeNow - active[oldest];
            long covered = now.toEpochMilli() - at[oldest];
            // A window shorter than a quarter of an hour says more about the last event than about the fleet.
            if (covered >= MIN_COVERED && da > 0 && dp >= 0 && dp <= da) {
                return new Window((double) dp / da, Duration.ofMillis(now.toEpochMilli() - at[oldest]), window);
            }
        }
        return new Window(fleet.ettr(), Duration.ZERO, window);
    }
}
