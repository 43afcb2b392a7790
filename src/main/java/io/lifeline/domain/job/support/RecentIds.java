package io.lifeline.domain.job.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recent event identities seen for one subject, so a redelivered event (same source and id)
 * is applied once. Bounded: the oldest identity is forgotten first, which is safe because redeliveries
 * come shortly after the original.
 */
public final class RecentIds {

    private final Map<String, Boolean> seen;

    public RecentIds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.seen = new LinkedHashMap<>(Math.min(capacity, 256) * 2, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records the identity; {@code false} when it was already seen (a duplicate). */
    public boolean add(String source, String id) {
        return seen.putIfAbsent(source + '\n' + id, Boolean.TRUE) == null;
    }

    public int size() {
        return seen.size();
    }
}
