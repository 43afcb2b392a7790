package io.lifeline.domain.fleet;

import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import java.util.ArrayList;
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
    public static final FleetSnapshot EMPTY = new FleetSnapshot(null, new NodeSnapshot[0], NodeSlots.EMPTY, -1, 0, 0);

    /** Soonest deadline first, unknown deadlines last, then by node. */
    static final Comparator<NodeNotice> SOONEST_DEADLINE = Comparator.comparing(
                    (NodeNotice nn) -> nn.notice().deadline(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(NodeNotice::node);

    private final Object source;
    /** The nodes by the fleet's slot (null for a free slot), never changed once taken. */
    private final NodeSnapshot[] bySlot;

    private final NodeSlots slots;
    /** The fleet's membership stamp {@link #slots} was built at. */
    private final long membership;

    private final int size;
    private final int rebuilt;
    private volatile List<NodeSnapshot> sorted;

    FleetSnapshot(Object source, NodeSnapshot[] bySlot, NodeSlots slots, long membership, int size, int rebuilt) {
        this.source = source;
        this.bySlot = bySlot;
        this.slots = slots;
        this.membership = membership;
        this.size = size;
        this.rebuilt = rebuilt;
    }

    boolean takenFrom(Fleet fleet) {
        return source == fleet;
    }

    /** The node in slot {@code slot}, or null (a free slot, or none so far). */
    NodeSnapshot inSlot(int slot) {
        return slot < bySlot.length ? bySlot[slot] : null;
    }

    /** The slot table, if it was built at this membership stamp; else null. */
    NodeSlots slotsAt(long stamp) {
        return stamp == membership ? slots : null;
    }

    NodeSnapshot byName(String name) {
        int slot = slots.slot(name);
        return slot < 0 ? null : bySlot[slot];
    }

    /** Nodes the fleet holds (terminated ones still kept as history included). */
    public int size() {
        return size;
    }

    /** The nodes, in slot order. */
    private List<NodeSnapshot> all() {
        List<NodeSnapshot> out = new ArrayList<>(size);
        for (NodeSnapshot n : bySlot) {
            if (n != null) {
                out.add(n);
            }
        }
        return out;
    }

    /** Nodes whose views were built afresh for this snapshot (the others were those of the snapshot before). */
    public int rebuilt() {
        return rebuilt;
    }

    public Optional<NodeSnapshot> node(String name) {
        return Optional.ofNullable(byName(name));
    }

    /** Every node, by name. */
    public List<NodeSnapshot> nodes() {
        List<NodeSnapshot> s = sorted;
        if (s == null) {
            List<NodeSnapshot> out = all();
            out.sort(Comparator.comparing(NodeSnapshot::name));
            s = List.copyOf(out);
            sorted = s;
        }
        return s;
    }

    /** Every node's row, by name. */
    public List<NodeSummary> summaries() {
        List<NodeSummary> out = new ArrayList<>(size);
        for (NodeSnapshot n : nodes()) {
            out.add(n.summary());
        }
        return out;
    }

    /** Every GPU, in no particular order. */
    public List<GpuView> gpus() {
        List<GpuView> out = new ArrayList<>(size * 8);
        for (NodeSnapshot n : all()) {
            out.addAll(n.detail().gpus());
        }
        return out;
    }

    /** GPU verdict counts per node pool, as {@link Fleet#gpuHealthByPool}. */
    public List<PoolGpuHealth> gpuHealthByPool() {
        Map<String, int[]> counts = new HashMap<>();
        for (NodeSnapshot n : all()) {
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
        for (NodeSnapshot n : all()) {
            NodeNotice nn = n.activeNotice();
            if (nn != null) {
                out.add(nn);
            }
        }
        out.sort(SOONEST_DEADLINE);
        return out;
    }
}
