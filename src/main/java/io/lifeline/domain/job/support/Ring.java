package io.lifeline.domain.job.support;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * A capped list that drops its oldest element when full: per-entity history (rounds, restores,
 * timeline entries) stays bounded however long an entity lives.
 *
 * @param <T> element type
 */
public final class Ring<T> implements Iterable<T> {

    private final int capacity;
    private final ArrayDeque<T> items;

    public Ring(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.items = new ArrayDeque<>(Math.min(capacity, 64));
    }

    /** Appends, dropping the oldest element when the ring is full. */
    public void add(T item) {
        if (items.size() == capacity) {
            items.pollFirst();
        }
        items.addLast(item);
    }

    /** The oldest element, or null when empty: the one the next {@link #add} drops when the ring is full. */
    public T oldest() {
        return items.peekFirst();
    }

    /** Whether the next {@link #add} drops the oldest element. */
    public boolean isFull() {
        return items.size() == capacity;
    }

    public int size() {
        return items.size();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** An immutable copy, oldest first. */
    @SuppressWarnings("unchecked")
    public List<T> toList() {
        // The deque holds no nulls. One copy fewer than going through an ArrayList, which List.copyOf copies again.
        return (List<T>) List.of(items.toArray());
    }

    /** Newest first: for callers that want only the latest few without walking the whole ring. */
    public Iterator<T> newestFirst() {
        return items.descendingIterator();
    }

    @Override
    public Iterator<T> iterator() {
        return items.iterator();
    }
}
