package io.lifeline.domain.fleet;

/**
 * One node in a {@link FleetSnapshot}: its row and its detail, taken together.
 *
 * @param summary  the node's row in the fleet list
 * @param detail   everything about it (GPUs, XIDs, notice, lemon score)
 * @param version  the fleet's change stamp the views were taken at: equal stamps, equal views
 */
public record NodeSnapshot(NodeSummary summary, NodeDetail detail, long version) {

    public String name() {
        return summary.name();
    }

    /** The node with its pending notice, or null when it has none. */
    public NodeNotice activeNotice() {
        if (!summary.noticeActive()) {
            return null;
        }
        NodeInfo f = detail.facts();
        return new NodeNotice(
                summary.name(),
                f == null ? null : f.pool(),
                f == null ? null : f.capacityType(),
                summary.state(),
                detail.notice());
    }
}
