package io.lifeline.demo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A node pool at run time: its live nodes and, kept up to date, the ones free for jobs. */
final class PoolState {

    final Scenario.Pool spec;
    final GpuModel model;
    final List<SimNode> live = new ArrayList<>();
    /** Free nodes in the order they became free: placement takes the oldest first. */
    final Set<SimNode> free = new LinkedHashSet<>();

    private int nextOrdinal;

    PoolState(Scenario.Pool spec) {
        this.spec = spec;
        this.model = spec.resolvedGpuModel();
    }

    String nextNodeName() {
        return String.format("%s-%04d", spec.name(), nextOrdinal++);
    }

    /** Puts the node in or out of the free set after its phase or holder changed. */
    void refresh(SimNode node) {
        if (node.free()) {
            free.add(node);
        } else {
            free.remove(node);
        }
    }
}
