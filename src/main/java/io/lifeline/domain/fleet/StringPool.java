package io.lifeline.domain.fleet;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Canonical instances for the few distinct strings repeated across thousands of nodes and GPUs (pools, zones,
 * instance types, GPU models, namespaces), so each is held once. Bounded: past {@code capacity} distinct values
 * strings are returned as they are.
 */
final class StringPool {

    private final ConcurrentHashMap<String, String> values = new ConcurrentHashMap<>();
    private final int capacity;

    StringPool(int capacity) {
        this.capacity = capacity;
    }

    String intern(String s) {
        if (s == null) {
            return null;
        }
        String known = values.get(s);
        if (known != null) {
            return known;
        }
        if (values.size() >= capacity) {
            return s;
        }
        known = values.putIfAbsent(s, s);
        return known == null ? s : known;
    }
}
