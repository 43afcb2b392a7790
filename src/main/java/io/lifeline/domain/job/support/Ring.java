package io.lifeline.domain.job.support;

import java.util.ArrayDeque;
import java.util.ArrayList;
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
    private long dropped;

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
            dropped++;
        }
        items.addLast(item);
    }

    /** The newest element, or {@code null} when empty. */
    public T newest() {
        return items.peekLast();
    }

    public int size() {
        return items.size();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** How many elements were dropped because the ring was full. */
    public long dropped() {
        return dropped;
    }

    /** An immutable copy, oldest first. */
    public List<T> toList() {
        return List.copyOf(new ArrayList<>(items));
    }

    @Override
    public Iterator<T> iterator() {
        return items.iterator();
    }
}
