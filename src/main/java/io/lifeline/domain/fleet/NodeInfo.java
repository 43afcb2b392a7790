package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;

/**
 * The static facts of a node that other parts of the model group by (pool, capacity type, zone).
 *
 * @param name          node name
 * @param pool          node pool
 * @param capacityType  spot, on-demand or reserved
 * @param zone          zone, may be null
 * @param instanceType  instance type, may be null
 * @param gpuCount      GPUs on the node
 */
public record NodeInfo(String name, String pool, CapacityType capacityType, String zone, String instanceType,
                       int gpuCount) {
}
