package io.lifeline.connector.torchelastic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects the per-node "joined round R as rank K in a world of size W" rendezvous events of a run until all W
 * nodes of round R have reported, then hands the complete membership over once, and remembers it as the run's
 * current membership (so that status events, which name only a host and a group rank, find the node the round
 * named). Agents sharing a host name (several agents on one machine) are told apart by torchelastic's own node id
 * ({@code <host>_<pid>_<n>}). Bounded: at most {@code capacity} rounds wait at a time and at most {@code capacity}
 * runs are remembered, the oldest dropped first (a round that never completes, because a node died during it, must
 * not pin memory). Thread-safe.
 */
final class RendezvousRounds {

    /** One complete round: node name by node rank. */
    record Round(String runId, int round, int nodes, List<String> nodeByRank) {
    }

    private record Key(String runId, int round) {
    }

    /** One agent's join: the node its host maps to and torchelastic's id of the agent (null when not given). */
    private record Member(String node, String hostname, String agentId) {
    }

    private final Map<Key, TreeMap<Integer, Member>> pending;
    private final Map<String, List<String>> currentByRun;

    RendezvousRounds(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.pending = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, TreeMap<Integer, Member>> eldest) {
                return size() > capacity;
            }
        };
        this.currentByRun = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, List<String>> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Records one agent's join; returns the complete round when this join completed it, else null.
     *
     * @param node     the node the agent's host maps to
     * @param hostname the host name the agent reported
     * @param agentId  torchelastic's node id of the agent ({@code <host>_<pid>_<n>}), null when the line had none
     */
    synchronized Round join(String runId, int round, int rank, int worldSize, String node, String hostname,
                            String agentId) {
        Key key = new Key(runId, round);
        TreeMap<Integer, Member> members = pending.computeIfAbsent(key, k -> new TreeMap<>());
        members.put(rank, new Member(node, hostname, agentId));
        if (members.size() < worldSize) {
            return null;
        }
        pending.remove(key);
        List<String> nodes = distinctNodes(members.values());
        currentByRun.put(runId, nodes);
        return new Round(runId, round, worldSize, nodes);
    }

    /** The node of group rank {@code groupRank} in the run's latest complete round; null when not known. */
    synchronized String nodeOf(String runId, int groupRank) {
        List<String> nodes = currentByRun.get(runId);
        return nodes == null || groupRank < 0 || groupRank >= nodes.size() ? null : nodes.get(groupRank);
    }

    /** Node names by rank; members sharing a node name get their agent's id appended, so every agent has its own. */
    private static List<String> distinctNodes(java.util.Collection<Member> members) {
        Map<String, Integer> count = new java.util.HashMap<>();
        members.forEach(m -> count.merge(m.node(), 1, Integer::sum));
        List<String> out = new java.util.ArrayList<>(members.size());
        for (Member m : members) {
            if (count.get(m.node()) == 1 || m.agentId() == null) {
                out.add(m.node());
            } else {
                String suffix = m.hostname() != null && m.agentId().startsWith(m.hostname() + "_")
                        ? m.agentId().substring(m.hostname().length() + 1) : m.agentId();
                out.add(m.node() + "_" + suffix);
            }
        }
        return List.copyOf(out);
    }

    synchronized int pendingRounds() {
        return pending.size();
    }
}
