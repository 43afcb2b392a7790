package io.lifeline.domain.job.spot;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.TrainerData.Participant;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks where a job's coordinating roles run. Rank 0 is the participant of the current placement whose ranks include
 * global rank 0; the rendezvous endpoint is the node the latest round named, else rank 0's node. A role is flagged
 * when its node is spot capacity and some pool the job runs in (or the role's own pool) has live on-demand or
 * reserved nodes: the operator could have placed it there, and a reclaim of a coordinating node stops every rank.
 */
public final class PlacementCheck {

    private PlacementCheck() {}

    /**
     * @param placement     the job's active participants now (lost nodes left out)
     * @param endpointNode  the node the latest rendezvous named as its endpoint's, or null
     * @param nodes         node facts and the capacity types of each pool
     */
    public static SpotPlacement check(Collection<Participant> placement, String endpointNode, NodeDirectory nodes) {
        if (placement.isEmpty()) {
            return SpotPlacement.NONE;
        }
        String rank0 = null;
        Set<String> pools = new TreeSet<>();
        for (Participant p : placement) {
            if (p.firstRank() <= 0 && p.firstRank() + p.rankCount() > 0) {
                rank0 = p.node();
            }
            NodeInfo info = nodes.find(p.node());
            if (info != null && info.pool() != null) {
                pools.add(info.pool());
            }
        }
        boolean reported = endpointNode != null && !endpointNode.isBlank();
        String endpoint = reported ? endpointNode : rank0;
        Map<String, List<CoordinatorRole>> roles = new LinkedHashMap<>();
        if (rank0 != null) {
            roles.computeIfAbsent(rank0, k -> new ArrayList<>()).add(CoordinatorRole.RANK_0);
        }
        if (endpoint != null) {
            roles.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(CoordinatorRole.RENDEZVOUS_ENDPOINT);
        }
        List<CoordinatorNode> coordinators = new ArrayList<>();
        Set<String> considered = new TreeSet<>(pools);
        for (Map.Entry<String, List<CoordinatorRole>> e : roles.entrySet()) {
            NodeInfo info = nodes.find(e.getKey());
            String pool = info == null ? null : info.pool();
            CapacityType type = info == null ? null : info.capacityType();
            if (pool != null) {
                considered.add(pool);
            }
            coordinators.add(new CoordinatorNode(
                    e.getKey(), e.getValue(), pool, type == null ? null : type.wireName(), type == CapacityType.SPOT));
        }
        List<String> onDemand = new ArrayList<>();
        for (String pool : considered) {
            Set<CapacityType> types = nodes.capacityTypesIn(pool);
            if (types.contains(CapacityType.ON_DEMAND) || types.contains(CapacityType.RESERVED)) {
                onDemand.add(pool);
            }
        }
        List<CoordinatorNode> onSpot =
                coordinators.stream().filter(CoordinatorNode::onSpot).toList();
        boolean flagged = !onSpot.isEmpty() && !onDemand.isEmpty();
        return new SpotPlacement(
                flagged,
                coordinators,
                reported,
                List.copyOf(pools),
                onDemand,
                flagged ? warning(onSpot, onDemand) : null);
    }

    private static String warning(List<CoordinatorNode> onSpot, List<String> onDemandPools) {
        List<String> parts = new ArrayList<>();
        for (CoordinatorNode c : onSpot) {
            parts.add(describe(c.roles()) + " on spot node " + c.node()
                    + (c.pool() == null ? "" : " (pool " + c.pool() + ")"));
        }
        return String.join("; ", parts) + ", while on-demand capacity exists in pool"
                + (onDemandPools.size() == 1 ? " " : "s ")
                + String.join(", ", onDemandPools) + ": a reclaim of that node restarts every rank. Place rank 0 and "
                + "the rendezvous endpoint on on-demand nodes and the workers on spot.";
    }

    private static String describe(List<CoordinatorRole> roles) {
        boolean rank0 = roles.contains(CoordinatorRole.RANK_0);
        boolean endpoint = roles.contains(CoordinatorRole.RENDEZVOUS_ENDPOINT);
        if (rank0 && endpoint) {
            return "rank 0 and the rendezvous endpoint run";
        }
        return rank0 ? "rank 0 runs" : "the rendezvous endpoint runs";
    }
}
