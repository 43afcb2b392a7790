package io.lifeline.domain.fleet.reliability;

import java.time.Instant;
import java.util.List;

/**
 * Fleet reliability over one window: a row per group, and the lemon nodes.
 *
 * @param from        the window's start (the start of a UTC day)
 * @param to          its end (now)
 * @param windowDays  whole UTC days in the window, today included
 * @param groupBy     what the rows group by
 * @param cause       the cause counted, null for all
 * @param confidence  of the intervals
 * @param rows        one per group, by group
 * @param lemons      lemon nodes, the least likely by chance first
 */
public record ReliabilityReport(
        Instant from,
        Instant to,
        int windowDays,
        GroupBy groupBy,
        InterruptionCause cause,
        double confidence,
        List<ReliabilityRow> rows,
        List<LemonNode> lemons) {

    public ReliabilityReport {
        rows = List.copyOf(rows);
        lemons = List.copyOf(lemons);
    }
}
