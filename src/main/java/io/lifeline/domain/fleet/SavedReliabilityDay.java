package io.lifeline.domain.fleet;

import java.util.List;

/**
 * One group's day of the reliability ledger, part of a {@link SavedFleet}.
 *
 * @param pool          the group's pool, may be null
 * @param zone          its zone, may be null
 * @param instanceType  its instance type, may be null
 * @param capacityType  its capacity type (wire form), may be null
 * @param day           the UTC day (days since 1970-01-01)
 * @param nodeMillis    service credited to that day
 * @param counts        interruptions by cause ordinal
 */
public record SavedReliabilityDay(
        String pool,
        String zone,
        String instanceType,
        String capacityType,
        long day,
        long nodeMillis,
        List<Long> counts) {

    public SavedReliabilityDay {
        counts = List.copyOf(counts);
    }
}
