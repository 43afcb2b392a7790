package io.lifeline.ui.data;

import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Duration;
import java.time.Instant;

/**
 * The fleet's (or a namespace scope's) cumulative productive and held time, sampled once a step (a minute for the
 * fleet) into a ring of a week, so the ETTR of the last 24 hours or 7 days is the ratio of the differences. Bounded:
 * one week of steps. Samples need not be regular: any two of cumulative values give the ratio between them.
 */
public final class EttrHistory {

    /** ETTR over a window, and how much of the window the history covers. */
    public record Window(Double ettr, Duration covered, Duration asked) {

        /** Whether the history covers the whole window. */
        public boolean complete() {
            return !covered.minus(asked).isNegative();
        }
    }

    private static final long WEEK = Duration.ofDays(7).toMillis();
    private static final long MIN_COVERED = Duration.ofMinutes(15).toMillis();

    private final long step;
    private final int capacity;
    private final long[] at;
    private final long[] productive;
    private final long[] active;
    private int size;
    private int head;

    /** A history sampled once a minute. */
    public EttrHistory() {
        this(Duration.ofMinutes(1));
    }

    /** A history sampled at most once per {@code step} (a week of them kept). */
    public EttrHistory(Duration step) {
        this.step = step.toMillis();
        this.capacity = (int) (WEEK / this.step) + 1;
        this.at = new long[capacity];
        this.productive = new long[capacity];
        this.active = new long[capacity];
    }

    /** Records a sample unless one was recorded less than a step ago. */
    public synchronized void record(Instant now, GoodputView fleet) {
        long t = now.toEpochMilli();
        if (size > 0 && t - at[(head + size - 1) % capacity] < step) {
            return;
        }
        int slot;
        if (size < capacity) {
            slot = (head + size) % capacity;
            size++;
        } else {
            slot = head;
            head = (head + 1) % capacity;
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
            int slot = (head + i) % capacity;
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
