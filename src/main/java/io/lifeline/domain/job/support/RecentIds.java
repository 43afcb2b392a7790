package io.lifeline.domain.job.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** The identities held, oldest first, in the form {@link #restore} takes back. */
    public List<String> keys() {
        return new ArrayList<>(seen.keySet());
    }

    /** Holds again identities {@link #keys()} gave, in their order (the oldest is forgotten first). */
    public void restore(List<String> keys) {
        for (String k : keys) {
            seen.putIfAbsent(k, Boolean.TRUE);
        }
    }

    public int size() {
        return seen.size();
    }
}
