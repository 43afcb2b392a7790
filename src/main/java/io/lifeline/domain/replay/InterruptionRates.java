package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;

/**
 * Interruptions per node-hour of a pool on a capacity type: the rate the what-if uses to turn a pool from spot to
 * on-demand (or back). Today it comes from the jobs model's exposure ({@link ExposureRates}); a fleet reliability
 * estimate (MTBF per pool and capacity type) plugs in here.
 */
public interface InterruptionRates {

    /** No rate known anywhere. */
    InterruptionRates NONE = (pool, capacity) -> null;

    /** Interruptions per node-hour, or null when not known. */
    Double perNodeHour(String pool, CapacityType capacity);
}
