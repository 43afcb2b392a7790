package io.lifeline.connector.torchelastic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects the per-node "joined round R as rank K in a world of size W" rendezvous events of a run until all W
 * nodes of round R have reported, then hands the complete membership over once. Bounded: at most
 * {@code capacity} rounds wait at a time, the oldest incomplete round is dropped first (a round that never
 * completes, because a node died during it, must not pin memory). Thread-safe.
 */
final class RendezvousRounds {

    /** One complete round: node name by node rank. */
    record Round(String runId, int round, int nodes, List<String> nodeByRank) {
    }

    private record Key(String runId, int round) {
    }

    private final Map<Key, TreeMap<Integer, String>> pending;

    RendezvousRounds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.pending = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, TreeMap<Integer, String>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records one node's join; returns the complete round when this join completed it, else null. */
    synchronized Round join(String runId, int round, int rank, int worldSize, String node) {
        Key key = new Key(runId, round);
        TreeMap<Integer, String> members = pending.computeIfAbsent(key, k -> new TreeMap<>());
        members.put(rank, node);
        if (members.size() < worldSize) {
            return null;
        }
        pending.remove(key);
        return new Round(runId, round, worldSize, List.copyOf(members.values()));
    }

    synchronized int pendingRounds() {
        return pending.size();
    }
}
