package io.lifeline.domain.fleet.reliability;

import java.util.Map;

/**
 * The reliability of one group of nodes within a window. Rates are per node-hour; the intervals are exact
 * (Garwood) at the report's confidence. With no interruption the MTBF and its upper bound are unknown (null).
 *
 * @param group            the group's value (a pool, zone, instance type or capacity type)
 * @param nodeHours        node-hours in service
 * @param interruptions    interruptions counted (of the cause asked for, or all)
 * @param byCause          interruptions by cause wire name (every cause, whatever was asked for)
 * @param rate             interruptions per node-hour, null without exposure
 * @param rateLower        lower bound of the rate
 * @param rateUpper        upper bound of the rate
 * @param mtbfHours        mean node-hours between interruptions, null without an interruption
 * @param mtbfLowerHours   lower bound of the MTBF (1 / rateUpper)
 * @param mtbfUpperHours   upper bound of the MTBF (1 / rateLower), null without an interruption
 */
public record ReliabilityRow(
        String group,
        double nodeHours,
        long interruptions,
        Map<String, Long> byCause,
        Double rate,
        Double rateLower,
        Double rateUpper,
        Double mtbfHours,
        Double mtbfLowerHours,
        Double mtbfUpperHours) {

    public ReliabilityRow {
        byCause = Map.copyOf(byCause);
    }
}
