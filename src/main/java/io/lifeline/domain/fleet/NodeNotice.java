package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;

/**
 * A node with a pending interruption notice.
 *
 * @param node          node name
 * @param pool          its pool, may be null
 * @param capacityType  its capacity type, may be null
 * @param state         its lifecycle state
 * @param notice        the notice
 */
public record NodeNotice(String node, String pool, CapacityType capacityType, NodeLifecycle state, Notice notice) {}
