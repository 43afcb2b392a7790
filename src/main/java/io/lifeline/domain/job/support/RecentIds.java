package io.lifeline.domain.job.support;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The most recent event identities seen for one subject, so a redelivered event (same source and id)
 * is applied once. Bounded: the oldest identity is forgotten first, which is safe because redeliveries
 * come shortly after the original.
 *
 * <p>The identities are held twice: in a set, to look one up, and in a ring in arrival order, to forget the oldest and
 * to hand them to a checkpoint of the model with two array copies. A checkpoint is taken on the thread that applies
 * events; walking a linked map of every job's identities there cost a third of the jobs' part of it.
 */
public final class RecentIds {

    private static final int INITIAL = 16;

    private final int capacity;
    private final Set<String> seen = new HashSet<>();
    /** Arrival order; {@code ring[head]} is the oldest once the ring is full, and {@code ring[0]} before. */
    private String[] ring;
    private int head;
    private int size;

    public RecentIds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.ring = new String[Math.min(capacity, INITIAL)];
    }

    /** Records the identity; {@code false} when it was already seen (a duplicate). */
    public boolean add(String source, String id) {
        return remember(source + '\n' + id);
    }

    private boolean remember(String key) {
        if (!seen.add(key)) {
            return false;
        }
        if (size < capacity) {
            // Not full yet, so nothing was forgotten and the oldest is still at 0: grow in place.
            if (size == ring.length) {
                ring = java.util.Arrays.copyOf(ring, Math.min(capacity, ring.length * 2));
            }
            ring[size++] = key;
        } else {
            seen.remove(ring[head]);
            ring[head] = key;
            head = (head + 1) % capacity;
        }
        return true;
    }

    /** The identities held, oldest first, in the form {@link #restore} takes back. */
    public List<String> keys() {
        String[] out = new String[size];
        int first = Math.min(size - head, size);
        System.arraycopy(ring, head, out, 0, first);
        System.arraycopy(ring, 0, out, first, size - first);
        return List.of(out);
    }

    /** Holds again identities {@link #keys()} gave, in their order (the oldest is forgotten first). */
    public void restore(List<String> keys) {
        for (String k : keys) {
            remember(k);
        }
    }

    public int size() {
        return size;
    }
}
