package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.gpu.GpuHealth;
import java.time.Instant;

/**
 * One row of the fleet list. Facts are null while the node has not registered.
 *
 * @param name          node name
 * @param pool          node pool, may be null
 * @param capacityType  spot, on-demand or reserved, may be null
 * @param zone          zone, may be null
 * @param instanceType  instance type, may be null
 * @param gpuCount      GPUs on the node: as registered (also while no telemetry has arrived), or as many as its
 *                      telemetry shows when that is more
 * @param state         lifecycle state
 * @param stateSince    when it entered that state, null for UNKNOWN
 * @param cordoned      whether it is unschedulable
 * @param noticeActive  whether an interruption notice is pending and its deadline has not passed: the node is at risk
 * @param noticeExpired whether an interruption notice is pending by the events but its deadline has passed (the node
 *                      was not seen going): not at risk, and not taken as free either
 * @param health        worst verdict of its GPUs (HEALTHY when it has none)
 * @param lemonScore    interruptions within the lemon window
 */
public record NodeSummary(
        String name,
        String pool,
        CapacityType capacityType,
        String zone,
        String instanceType,
        int gpuCount,
        NodeLifecycle state,
        Instant stateSince,
        boolean cordoned,
        boolean noticeActive,
        boolean noticeExpired,
        GpuHealth health,
        int lemonScore) {}
