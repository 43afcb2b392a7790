package io.lifeline.ui;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.gpu.GpuHealth;

/**
 * The filters of the fleet heat map; null fields match everything.
 *
 * @param pool          node pool
 * @param capacityType  capacity type
 * @param health        node health (worst GPU)
 * @param job           only nodes hosting this job's ranks
 * @param metric        what the colour shows
 */
public record FleetQuery(
        String pool, CapacityType capacityType, GpuHealth health, String job, HeatMapModel.Metric metric) {

    public static FleetQuery all() {
        return new FleetQuery(null, null, null, null, HeatMapModel.Metric.HEALTH);
    }
}
