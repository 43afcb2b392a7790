package io.lifeline.domain.fleet;

import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole fleet at one moment, immutable, taken by {@link Fleet#snapshot} on the model's thread. Only the map of
 * nodes is built there; the orderings and counts below are worked out on the reader's thread, once, when first
 * asked for, so the model's thread is held only for the copy of what changed.
 */
public final class FleetSnapshot {

    /** The snapshot before the first: no nodes, from no fleet. */
    public static final FleetSnapshot EMPTY = new FleetSnapshot(null, Map.of(), 0);

    /** Soonest deadline first, unknown deadlines last, then by node. */
    static final Comparator<NodeNotice> SOONEST_DEADLINE = Comparator.comparing((NodeNotice nn) -> nn.notice().deadline(),
            Comparator.nullsLast(Comparator.naturalOrder())).thenComparing(NodeNotice::node);

    private final Object source;
    private final Map<String, NodeSnapshot> byName;
    private final int rebuilt;
    private volatile List<NodeSnapshot> sorted;

    FleetSnapshot(Object source, Map<String, NodeSnapshot> byName, int rebuilt) {
        this.source = source;
        this.byName = Collections.unmodifiableMap(byName);
        this.rebuilt = rebuilt;
    }

    boolean takenFrom(Fleet fleet) {
        return source == fleet;
    }

    NodeSnapshot byName(String name) {
        return byName.get(name);
    }

    /** Nodes the fleet holds (terminated ones still kept as history included). */
    public int size() {
        return byName.size();
    }

    /** Nodes whose views were built afresh for this snapshot (the others were those of the snapshot before). */
    public int rebuilt() {
        return rebuilt;
    }

    public Optional<NodeSnapshot> node(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every node, by name. */
    public List<NodeSnapshot> nodes() {
        List<NodeSnapshot> s = sorted;
        if (s == null) {
            List<NodeSnapshot> out = new ArrayList<>(byName.values());
            out.sort(Comparator.comparing(NodeSnapshot::name));
            s = List.copyOf(out);
            sorted = s;
        }
        return s;
    }

    /** Every node's row, by name. */
    public List<NodeSummary> summaries() {
        List<NodeSummary> out = new ArrayList<>(byName.size());
        for (NodeSnapshot n : nodes()) {
            out.add(n.summary());
        }
        return out;
    }

    /** Every GPU, in no particular order. */
    public List<GpuView> gpus() {
        List<GpuView> out = new ArrayList<>(byName.size() * 8);
        for (NodeSnapshot n : byName.values()) {
            out.addAll(n.detail().gpus());
        }
        return out;
    }

    /** GPU verdict counts per node pool, as {@link Fleet#gpuHealthByPool}. */
    public List<PoolGpuHealth> gpuHealthByPool() {
        Map<String, int[]> counts = new HashMap<>();
        for (NodeSnapshot n : byName.values()) {
            if (n.summary().state() == NodeLifecycle.TERMINATED) {
                continue;
            }
            int[] c = counts.computeIfAbsent(n.summary().pool(), p -> new int[GpuHealth.values().length]);
            for (GpuView g : n.detail().gpus()) {
                c[g.health().ordinal()]++;
            }
        }
        return byPool(counts);
    }

    /** Verdict counts (indexed by {@link GpuHealth#ordinal()}) per pool as rows, by pool; unregistered nodes last. */
    static List<PoolGpuHealth> byPool(Map<String, int[]> counts) {
        List<PoolGpuHealth> out = new ArrayList<>();
        counts.forEach((pool, c) -> out.add(new PoolGpuHealth(pool, c[0], c[1], c[2])));
        out.sort(Comparator.comparing(PoolGpuHealth::pool, Comparator.nullsLast(Comparator.naturalOrder())));
        return out;
    }

    /** Nodes with a pending interruption notice, as {@link Fleet#nodesWithActiveNotice}. */
    public List<NodeNotice> nodesWithActiveNotice() {
        List<NodeNotice> out = new ArrayList<>();
        for (NodeSnapshot n : byName.values()) {
            NodeNotice nn = n.activeNotice();
            if (nn != null) {
                out.add(nn);
            }
        }
        out.sort(SOONEST_DEADLINE);
        return out;
    }
}
