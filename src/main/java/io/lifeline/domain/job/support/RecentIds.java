package io.lifeline.domain.job.support;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The most recent event identities seen for one subject, so a redelivered event (same source and id)
 * is applied once. Bounded: the oldest identity is forgotten first, which is safe because redeliveries
 * come shortly after the original.
 *
 * <p>The identities are held twice: in a set, to look one up, and in a {@link Ring} in arrival order, to forget the
 * oldest and to hand them to a checkpoint of the model as an array copy. A checkpoint is taken on the thread that
 * applies events; walking a linked map of every job's identities there cost a third of the jobs' part of it.
 */
public final class RecentIds {

    private final Set<String> seen = new HashSet<>();
    private final Ring<String> order;

    public RecentIds(int capacity) {
        this.order = new Ring<>(capacity);
    }

    /** Records the identity; {@code false} when it was already seen (a duplicate). */
    public boolean add(String source, String id) {
        return remember(source + '\n' + id);
    }

    private boolean remember(String key) {
        if (!seen.add(key)) {
            return false;
        }
        if (order.isFull()) {
            seen.remove(order.oldest());
        }
        order.add(key);
        return true;
    }

    /** The identities held, oldest first, in the form {@link #restore} takes back. */
    public List<String> keys() {
        return order.toList();
    }

    /** Holds again identities {@link #keys()} gave, in their order (the oldest is forgotten first). */
    public void restore(List<String> keys) {
        for (String k : keys) {
            remember(k);
        }
    }

    public int size() {
        return order.size();
    }
}
