package io.lifeline.domain.job.membership;

import io.lifeline.domain.event.TrainerData.Participant;
import io.lifeline.domain.job.support.Ring;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One job's elastic membership: rendezvous rounds, the ranks on each node now, and the world size over
 * time. History is bounded; {@link #version()} changes whenever the set of nodes changes, so the node
 * index is updated only when needed.
 */
public final class Membership {

    private final Ring<RendezvousRound> rounds;
    private final Ring<WorldSizePoint> series;
    private final Map<String, Participant> placement = new LinkedHashMap<>();
    private final Set<String> lost = new TreeSet<>();
    private RendezvousRound current;
    private long version;
    private long gpusVersion = -1;
    private Integer gpusPerNodeCached;
    private int gpusCached;
    private long worldSizeVersion = -1;
    private int worldSizeCached;
    /** The last {@link #view} given, until anything it shows changes (a late round changes only the history). */
    private MembershipView view;

    public Membership(int maxRounds, int maxSeriesPoints) {
        this.rounds = new Ring<>(maxRounds);
        this.series = new Ring<>(maxSeriesPoints);
    }

    /** The membership's state as plain values. */
    public SavedMembership save() {
        return new SavedMembership(
                rounds.toList(), series.toList(), List.copyOf(placement.values()), List.copyOf(lost), current, version);
    }

    /** A membership in the state {@link #save()} gave, with these bounds. */
    public static Membership restore(SavedMembership s, int maxRounds, int maxSeriesPoints) {
        Membership m = new Membership(maxRounds, maxSeriesPoints);
        s.rounds().forEach(m.rounds::add);
        s.series().forEach(m.series::add);
        for (Participant p : s.placement()) {
            m.placement.put(p.node(), p);
        }
        m.lost.addAll(s.lost());
        m.current = s.current();
        m.version = s.version();
        return m;
    }

    /**
     * Records a round. A round older than the current one (a late event) goes to the history only.
     *
     * @return whether the round became the current membership
     */
    public boolean record(RendezvousRound round) {
        rounds.add(round);
        view = null;
        if (current != null && round.time().isBefore(current.time())) {
            return false;
        }
        current = round;
        placement.clear();
        lost.clear();
        for (Participant p : round.participants()) {
            placement.put(p.node(), p);
        }
        version++;
        series.add(new WorldSizePoint(round.time(), round.worldSize(), placement.size(), "rendezvous"));
        return true;
    }

    /**
     * Marks a node of the current placement as gone (terminated, evicted) until the next round.
     *
     * @return whether the node was in the placement and not already lost
     */
    public boolean markLost(String node, Instant at) {
        if (!placement.containsKey(node) || !lost.add(node)) {
            return false;
        }
        version++;
        view = null;
        series.add(new WorldSizePoint(at, worldSize(), activeNodeCount(), "node-lost"));
        return true;
    }

    /** The job left all its nodes (preempted, evicted, finished): no placement until the next round. */
    public void release(Instant at) {
        if (placement.isEmpty()) {
            return;
        }
        placement.clear();
        lost.clear();
        version++;
        view = null;
        series.add(new WorldSizePoint(at, 0, 0, "released"));
    }

    /** Whether the round has the same nodes and world size as the current placement. */
    public boolean sameAsCurrent(RendezvousRound round) {
        if (current == null || placement.isEmpty() || round.worldSize() != current.worldSize()) {
            return false;
        }
        if (round.participants().size() != placement.size()) {
            return false;
        }
        for (Participant p : round.participants()) {
            if (!placement.containsKey(p.node())) {
                return false;
            }
        }
        return true;
    }

    /** Nodes that host ranks now (including lost ones until the next round), in round order. */
    public Set<String> nodes() {
        return Collections.unmodifiableSet(placement.keySet());
    }

    /** Nodes that host ranks and are not lost. */
    public int activeNodeCount() {
        return placement.size() - lost.size();
    }

    /** Ranks on nodes that are not lost (counted again only after the placement changed). */
    public int worldSize() {
        if (worldSizeVersion != version) {
            int ranks = 0;
            for (Participant p : placement.values()) {
                if (!lost.contains(p.node())) {
                    ranks += p.rankCount();
                }
            }
            worldSizeCached = ranks;
            worldSizeVersion = version;
        }
        return worldSizeCached;
    }

    /**
     * GPUs held on nodes that are not lost.
     *
     * @param gpusPerNode  GPUs the job uses per node (0 for a job on CPUs), or null when its spec is not known (one GPU
     *                     per rank is assumed then)
     */
    public int gpus(Integer gpusPerNode) {
        if (gpusVersion == version && java.util.Objects.equals(gpusPerNodeCached, gpusPerNode)) {
            return gpusCached;
        }
        int total = 0;
        for (Participant p : placement.values()) {
            if (!lost.contains(p.node())) {
                total += gpusPerNode != null ? gpusPerNode : p.rankCount();
            }
        }
        gpusVersion = version;
        gpusPerNodeCached = gpusPerNode;
        gpusCached = total;
        return total;
    }

    /** The node hosting global rank {@code rank} now, or null when no active node does. */
    public String nodeOfRank(int rank) {
        for (Participant p : placement.values()) {
            if (rank >= p.firstRank() && rank < p.firstRank() + p.rankCount() && !lost.contains(p.node())) {
                return p.node();
            }
        }
        return null;
    }

    /**
     * When {@code node} was first out of the job's group after {@code since}: the time of the first round after it
     * that did not include the node, or null (it was in every round since, or none formed; only the rounds the history
     * keeps are read).
     */
    public Instant leftAfter(String node, Instant since) {
        Instant left = null;
        for (RendezvousRound r : rounds.toList()) {
            if (r.time().isAfter(since)
                    && r.participants().stream().noneMatch(p -> p.node().equals(node))
                    && (left == null || r.time().isBefore(left))) {
                left = r.time();
            }
        }
        return left;
    }

    /** Nodes of the placement that are not lost, in round order. */
    public List<String> activeNodes() {
        List<String> out = new ArrayList<>(placement.size());
        for (String n : placement.keySet()) {
            if (!lost.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** The participants of the placement whose nodes are not lost, in round order. */
    public List<Participant> activeParticipants() {
        List<Participant> out = new ArrayList<>(placement.size());
        for (Participant p : placement.values()) {
            if (!lost.contains(p.node())) {
                out.add(p);
            }
        }
        return out;
    }

    public RendezvousRound current() {
        return current;
    }

    /** Changes whenever the placement changes (a round, a node lost, a release), for incremental updates. */
    public long version() {
        return version;
    }

    /** The membership as an immutable view (the same instance while nothing it shows changed). */
    public MembershipView view(String job) {
        MembershipView v = view;
        if (v == null || !v.job().equals(job)) {
            v = takeView(job);
            view = v;
        }
        return v;
    }

    private MembershipView takeView(String job) {
        List<Participant> now = new ArrayList<>();
        for (Participant p : placement.values()) {
            if (!lost.contains(p.node())) {
                now.add(p);
            }
        }
        List<RendezvousRound> history = new ArrayList<>(rounds.toList());
        history.sort((a, b) -> a.time().compareTo(b.time()));
        return new MembershipView(
                job, current, List.copyOf(now), List.copyOf(lost), worldSize(), List.copyOf(history), series.toList());
    }
}
