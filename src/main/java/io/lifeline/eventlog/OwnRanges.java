package io.lifeline.eventlog;

import java.util.Map;
import java.util.TreeMap;

/**
 * Ranges of {@code seq} that this replica stored and has queued for its model, lowest first, adjacent ranges joined.
 * The log follower moves past them without reading them back ({@link EventLogTail#appliedHere}). Thread-safe: the
 * writer's side adds, the follower takes.
 */
final class OwnRanges {

    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    /** Adds {@code from..to} (inclusive). */
    synchronized void add(long from, long to) {
        if (to < from) {
            return;
        }
        Map.Entry<Long, Long> before = ranges.floorEntry(from);
        if (before != null && before.getValue() >= from - 1) {
            from = before.getKey();
            to = Math.max(to, before.getValue());
        }
        Map.Entry<Long, Long> after;
        while ((after = ranges.higherEntry(from)) != null && after.getKey() <= to + 1) {
            to = Math.max(to, after.getValue());
            ranges.remove(after.getKey());
        }
        ranges.put(from, to);
    }

    /**
     * The first range that reaches past {@code cursor}, as {@code {from, to}}, or null; ranges wholly at or below the
     * cursor are forgotten.
     */
    synchronized long[] after(long cursor) {
        Map.Entry<Long, Long> first;
        while ((first = ranges.firstEntry()) != null && first.getValue() <= cursor) {
            ranges.pollFirstEntry();
        }
        return first == null ? null : new long[] {first.getKey(), first.getValue()};
    }

    /** Ranges held now. */
    synchronized int size() {
        return ranges.size();
    }
}
