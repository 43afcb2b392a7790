package io.lifeline.connector.inbound.dcgm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last XID value seen per GPU (node and UUID), so that a {@code gpu.xid} event is emitted only when the
 * gauge changes. Bounded: the least recently seen GPU is forgotten beyond the capacity (forgetting only risks
 * one repeated XID event for a GPU that was silent for a very long time). Thread-safe.
 */
final class LastXidMemory {

    private final Map<String, Integer> lastByGpu;

    LastXidMemory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.lastByGpu = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Records the value seen now and tells whether it is news: a value different from the previous one, or the
     * first value seen for the GPU. Zero ("no error") is remembered but never news.
     */
    synchronized boolean observe(String node, String uuid, int xid) {
        Integer previous = lastByGpu.put(node + '\u0000' + uuid, xid);
        return xid != 0 && (previous == null || previous != xid);
    }

    synchronized int size() {
        return lastByGpu.size();
    }
}
