package io.lifeline.domain.fleet;

import io.lifeline.domain.fleet.reliability.GroupExposure;
import io.lifeline.domain.fleet.reliability.GroupKey;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.ReliabilitySettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Time in service and interruptions by cause, per group of node facts and UTC day, over the last
 * {@link ReliabilitySettings#MAX_WINDOW_DAYS} days: what outlives the nodes themselves (terminated nodes are forgotten
 * beyond a count, spot fleets churn names). A life's time in service is credited when it ends (termination); the
 * running lives of live nodes are added at read time. Memory: one ring of days per group, at most
 * {@link #MAX_GROUPS} groups (facts beyond are not counted, and counted as dropped).
 */
final class ReliabilityLedger {

    static final int DAYS = ReliabilitySettings.MAX_WINDOW_DAYS;
    static final int MAX_GROUPS = 4096;
    static final long DAY_MILLIS = 86_400_000L;
    private static final int CAUSES = InterruptionCause.values().length;

    private final Map<GroupKey, Days> groups = new HashMap<>();
    private long dropped;

    /** Credits service from {@code from} to {@code to} (epoch ms) to the group, split over the days it spans. */
    void credit(GroupKey key, long from, long to) {
        if (to <= from) {
            return;
        }
        Days d = days(key);
        if (d == null) {
            return;
        }
        long t = from;
        while (t < to) {
            long day = Math.floorDiv(t, DAY_MILLIS);
            long end = Math.min(to, (day + 1) * DAY_MILLIS);
            int slot = d.slot(day);
            if (slot >= 0) {
                d.millis[slot] += end - t;
            }
            t = end;
        }
    }

    void count(GroupKey key, long at, InterruptionCause cause) {
        Days d = days(key);
        if (d == null) {
            return;
        }
        int slot = d.slot(Math.floorDiv(at, DAY_MILLIS));
        if (slot >= 0) {
            d.counts[slot * CAUSES + cause.ordinal()]++;
        }
    }

    /** Facts refused for want of room, since start. */
    long dropped() {
        return dropped;
    }

    /** Each group's credited service and counts of the days {@code fromDay}..{@code toDay} (epoch days). */
    Map<GroupKey, long[]> window(long fromDay, long toDay) {
        Map<GroupKey, long[]> out = new HashMap<>();
        for (Map.Entry<GroupKey, Days> e : groups.entrySet()) {
            Days d = e.getValue();
            long[] acc = new long[CAUSES + 1];
            for (int s = 0; s < DAYS; s++) {
                if (d.day[s] >= fromDay && d.day[s] <= toDay) {
                    acc[CAUSES] += d.millis[s];
                    for (int c = 0; c < CAUSES; c++) {
                        acc[c] += d.counts[s * CAUSES + c];
                    }
                }
            }
            out.put(e.getKey(), acc);
        }
        return out;
    }

    static GroupExposure exposure(GroupKey key, long[] acc) {
        long[] counts = new long[CAUSES];
        System.arraycopy(acc, 0, counts, 0, CAUSES);
        return new GroupExposure(key, acc[CAUSES], counts);
    }

    /** The ledger as plain values: one entry per group and day with anything in it. */
    List<SavedReliabilityDay> save() {
        List<SavedReliabilityDay> out = new ArrayList<>();
        groups.forEach((k, d) -> {
            for (int s = 0; s < DAYS; s++) {
                if (d.day[s] == Long.MIN_VALUE) {
                    continue;
                }
                List<Long> counts = new ArrayList<>(CAUSES);
                for (int c = 0; c < CAUSES; c++) {
                    counts.add((long) d.counts[s * CAUSES + c]);
                }
                out.add(new SavedReliabilityDay(
                        k.pool(), k.zone(), k.instanceType(), k.capacityType(), d.day[s], d.millis[s], counts));
            }
        });
        return out;
    }

    void restore(List<SavedReliabilityDay> saved, StringPool strings) {
        for (SavedReliabilityDay s : saved) {
            GroupKey key = new GroupKey(
                    strings.intern(s.pool()),
                    strings.intern(s.zone()),
                    strings.intern(s.instanceType()),
                    strings.intern(s.capacityType()));
            Days d = days(key);
            if (d == null) {
                continue;
            }
            int slot = d.slot(s.day());
            if (slot < 0) {
                continue;
            }
            d.millis[slot] += s.nodeMillis();
            for (int c = 0; c < CAUSES && c < s.counts().size(); c++) {
                d.counts[slot * CAUSES + c] +=
                        (int) Math.min(Integer.MAX_VALUE, s.counts().get(c));
            }
        }
    }

    private Days days(GroupKey key) {
        Days d = groups.get(key);
        if (d == null) {
            if (groups.size() >= MAX_GROUPS) {
                dropped++;
                return null;
            }
            d = new Days();
            groups.put(key, d);
        }
        return d;
    }

    /** A ring of days: slot = day mod {@link #DAYS}, reset when a newer day takes it. */
    private static final class Days {
        final long[] day = new long[DAYS];
        final long[] millis = new long[DAYS];
        final int[] counts = new int[DAYS * CAUSES];

        Days() {
            java.util.Arrays.fill(day, Long.MIN_VALUE);
        }

        /** The slot of {@code d}, cleared if it held an older day; -1 when {@code d} is older than the ring keeps. */
        int slot(long d) {
            int s = (int) Math.floorMod(d, (long) DAYS);
            if (day[s] == d) {
                return s;
            }
            if (day[s] > d) {
                return -1;
            }
            day[s] = d;
            millis[s] = 0;
            java.util.Arrays.fill(counts, s * CAUSES, (s + 1) * CAUSES, 0);
            return s;
        }
    }
}
