package io.lifeline.domain.objective;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An objective's GPU time over the last 30 days in fixed memory: a ring of minute slots for the last six hours (what
 * the burn-rate windows read) and a ring of hour slots for the whole window. A slot is reused when its ring comes
 * round again, so nothing is ever scanned beyond the two rings and memory does not grow with time or jobs.
 */
final class WindowSeries {

    static final long MINUTE = 60_000L;
    static final long HOUR = 3_600_000L;
    /** Minute slots kept: six hours, the longest burn-rate window. */
    static final int MINUTES = 360;
    /** Hour slots kept: the longest objective window, plus the hour under way. */
    static final int HOURS = (int) (Objective.MAX_WINDOW.toMillis() / HOUR) + 1;

    private final Ring minutes = new Ring(MINUTES, MINUTE);
    private final Ring hours = new Ring(HOURS, HOUR);

    /** Adds {@code delta}, measured up to {@code atMillis}, to the slots holding that instant. */
    void add(long atMillis, Tally delta) {
        minutes.slot(atMillis).add(delta);
        hours.slot(atMillis).add(delta);
    }

    /**
     * The sum over the {@code span} up to {@code nowMillis}: of minute slots up to six hours, of hour slots beyond
     * (whole slots: the oldest slot counted is the one holding {@code now - span}, exclusive of its start).
     */
    Tally sum(long nowMillis, Duration span) {
        Ring r = span.toMillis() <= MINUTES * MINUTE ? minutes : hours;
        return r.sum(nowMillis, span.toMillis());
    }

    List<SavedSeries.SavedSlot> saveMinutes() {
        return minutes.save();
    }

    List<SavedSeries.SavedSlot> saveHours() {
        return hours.save();
    }

    void restore(List<SavedSeries.SavedSlot> minuteSlots, List<SavedSeries.SavedSlot> hourSlots) {
        minutes.restore(minuteSlots);
        hours.restore(hourSlots);
    }

    /** Slots of one resolution, indexed by their absolute number (epoch millis / width). */
    private static final class Ring {
        private final Tally[] slots;
        private final long[] index;
        private final long width;

        Ring(int n, long width) {
            this.slots = new Tally[n];
            this.index = new long[n];
            this.width = width;
            java.util.Arrays.fill(index, Long.MIN_VALUE);
        }

        Tally slot(long atMillis) {
            long i = Math.floorDiv(atMillis, width);
            int k = (int) Math.floorMod(i, (long) slots.length);
            if (slots[k] == null) {
                slots[k] = new Tally();
            }
            if (index[k] != i) {
                slots[k].clear();
                index[k] = i;
            }
            return slots[k];
        }

        List<SavedSeries.SavedSlot> save() {
            List<SavedSeries.SavedSlot> out = new ArrayList<>();
            for (int k = 0; k < slots.length; k++) {
                Tally t = slots[k];
                if (t != null && index[k] != Long.MIN_VALUE) {
                    out.add(new SavedSeries.SavedSlot(
                            index[k],
                            t.gpuMillis.clone(),
                            t.lostGpuHoursByCause.clone(),
                            t.heldMoney,
                            t.spentMoney,
                            t.lostMoney,
                            t.unpricedGpuMillis));
                }
            }
            return out;
        }

        void restore(List<SavedSeries.SavedSlot> saved) {
            for (SavedSeries.SavedSlot s : saved) {
                if (s.gpuMillis().length != Tally.BUCKETS || s.lostByCause().length != Tally.CAUSES) {
                    continue;
                }
                int k = (int) Math.floorMod(s.index(), (long) slots.length);
                // A slot the ring has since reused for a later one is older than what the ring holds: dropped.
                if (index[k] != Long.MIN_VALUE && index[k] > s.index()) {
                    continue;
                }
                Tally t = slot(s.index() * width);
                System.arraycopy(s.gpuMillis(), 0, t.gpuMillis, 0, Tally.BUCKETS);
                System.arraycopy(s.lostByCause(), 0, t.lostGpuHoursByCause, 0, Tally.CAUSES);
                t.heldMoney = s.heldMoney();
                t.spentMoney = s.spentMoney();
                t.lostMoney = s.lostMoney();
                t.unpricedGpuMillis = s.unpricedGpuMillis();
            }
        }

        Tally sum(long nowMillis, long spanMillis) {
            Tally out = new Tally();
            long last = Math.floorDiv(nowMillis, width);
            long count = Math.min(slots.length, Math.max(1, (spanMillis + width - 1) / width));
            for (long i = last - count + 1; i <= last; i++) {
                int k = (int) Math.floorMod(i, (long) slots.length);
                if (slots[k] != null && index[k] == i) {
                    out.add(slots[k]);
                }
            }
            return out;
        }
    }
}
