package io.lifeline.domain.job.spot;

import java.util.List;

/**
 * A node that holds coordinating roles of a job, and what capacity it is bought on.
 *
 * @param node          node name
 * @param roles         the roles it holds
 * @param pool          its pool, or null when the node has not registered
 * @param capacityType  {@code spot}, {@code on-demand} or {@code reserved}, or null when unknown
 * @param onSpot        whether it is spot capacity
 */
public record CoordinatorNode(
        String node, List<CoordinatorRole> roles, String pool, String capacityType, boolean onSpot) {

    public CoordinatorNode {
        roles = List.copyOf(roles);
    }
}
