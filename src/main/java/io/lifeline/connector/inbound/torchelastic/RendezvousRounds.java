package io.lifeline.connector.inbound.torchelastic;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects the per-node "joined round R as rank K in a world of size W" rendezvous events of a run until all W
 * nodes of round R have reported, then hands the complete membership over once, and remembers it as the run's
 * current membership (so that status events, which name only a host and a group rank, find the node and the agent
 * the round named). Agents sharing a host name (several agents on one machine) are told apart by torchelastic's own
 * node id ({@code <host>_<pid>_<n>}). A round is gathered per run, round number and world size: a relaunch with the
 * same run id numbers its rounds from 0 again, and a round of the launch before that never completed (a node died
 * during it) must not be completed by the new launch's joins of another size. Bounded: at most {@code capacity}
 * rounds wait at a time and at most {@code capacity} runs are remembered, the oldest dropped first (a round that
 * never completes must not pin memory). Thread-safe.
 */
final class RendezvousRounds {

    /**
     * One complete round.
     *
     * @param nodeByRank    node name by node rank
     * @param launchByRank  the launch of each node rank's agent (see {@link #join}), an element null when unknown
     * @param time          when the last agent joined: the latest of the joins' times
     */
    record Round(
            String runId, int round, int nodes, List<String> nodeByRank, List<String> launchByRank, Instant time) {}

    private record Key(String runId, int round, int worldSize) {}

    /** One agent's join: the node its host maps to, torchelastic's id of the agent, its launch (null when unknown). */
    private record Member(String node, String hostname, String agentId, String launch, Instant time) {}

    /** A run's latest complete round: its members by node rank, their nodes as the round named them. */
    private record Current(List<Member> members, List<String> nodes) {}

    private final Map<Key, TreeMap<Integer, Member>> pending;
    private final Map<String, Current> currentByRun;

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
            protected boolean removeEldestEntry(Map.Entry<String, Current> eldest) {
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
     * @param launch   the launch the agent belongs to (the wrapper's launch id, else the agent's node id), or null
     * @param time     when the agent joined
     */
    synchronized Round join(
            String runId,
            int round,
            int rank,
            int worldSize,
            String node,
            String hostname,
            String agentId,
            String launch,
            Instant time) {
        Key key = new Key(runId, round, worldSize);
        TreeMap<Integer, Member> members = pending.computeIfAbsent(key, k -> new TreeMap<>());
        members.put(rank, new Member(node, hostname, agentId, launch, time));
        if (members.size() < worldSize) {
            return null;
        }
        pending.remove(key);
        List<Member> all = List.copyOf(members.values());
        List<String> nodes = distinctNodes(all);
        List<String> launches = new ArrayList<>(all.size());
        Instant completed = time;
        for (Member m : all) {
            launches.add(m.launch());
            completed = m.time().isAfter(completed) ? m.time() : completed;
        }
        currentByRun.put(runId, new Current(all, nodes));
        return new Round(runId, round, worldSize, nodes, Collections.unmodifiableList(launches), completed);
    }

    /**
     * The agent of group rank {@code groupRank} in the run's latest complete round, when that agent reported host name
     * {@code hostname}: a status line names only its host and its group rank, which a later round may have given
     * another agent (a line of the round before, arriving after the new round completed) or which may be of a round
     * not complete yet. Null when not known or not that host's.
     */
    private Member memberOf(String runId, int groupRank, String hostname) {
        Current c = currentByRun.get(runId);
        if (c == null || groupRank < 0 || groupRank >= c.members().size()) {
            return null;
        }
        Member m = c.members().get(groupRank);
        return hostname == null || hostname.equals(m.hostname()) ? m : null;
    }

    /** The node of a status line's agent (see {@link #memberOf}), as the round named it; null when not known. */
    synchronized String nodeOf(String runId, int groupRank, String hostname) {
        Current c = currentByRun.get(runId);
        return memberOf(runId, groupRank, hostname) == null ? null : c.nodes().get(groupRank);
    }

    /** The launch of a status line's agent (see {@link #memberOf}); null when not known. */
    synchronized String launchOf(String runId, int groupRank, String hostname) {
        Member m = memberOf(runId, groupRank, hostname);
        return m == null ? null : m.launch();
    }

    /** Node names by rank; members sharing a node name get their agent's id appended, so every agent has its own. */
    private static List<String> distinctNodes(Collection<Member> members) {
        Map<String, Integer> count = new HashMap<>();
        members.forEach(m -> count.merge(m.node(), 1, Integer::sum));
        List<String> out = new ArrayList<>(members.size());
        for (Member m : members) {
            if (count.get(m.node()) == 1 || m.agentId() == null) {
                out.add(m.node());
            } else {
                String suffix = m.hostname() != null && m.agentId().startsWith(m.hostname() + "_")
                        ? m.agentId().substring(m.hostname().length() + 1)
                        : m.agentId();
                out.add(m.node() + "_" + suffix);
            }
        }
        return List.copyOf(out);
    }

    synchronized int pendingRounds() {
        return pending.size();
    }
}
