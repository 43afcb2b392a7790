package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.gpu.GpuHealth;
import java.util.Objects;

/**
 * Filters for the fleet list; a null field matches everything.
 *
 * @param pool          node pool
 * @param capacityType  capacity type
 * @param state         lifecycle state
 * @param health        node health (worst GPU verdict)
 */
public record NodeQuery(String pool, CapacityType capacityType, NodeLifecycle state, GpuHealth health) {

    /** Matches every node. */
    public static NodeQuery all() {
        return new NodeQuery(null, null, null, null);
    }

    /** Whether {@code s} passes every filter that is set. */
    public boolean matches(NodeSummary s) {
        return (pool == null || Objects.equals(pool, s.pool()))
                && (capacityType == null || capacityType == s.capacityType())
                && (state == null || state == s.state())
                && (health == null || health == s.health());
    }
}
