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
 * @param admissionFailures  per node, the pods its kubelet rejected at admission or device allocation within the
 *                           window (nodes with none left out), most first: interruptions count what a node did to
 *                           running work, these what it did to work sent to it
 */
public record ReliabilityReport(
        Instant from,
        Instant to,
        int windowDays,
        GroupBy groupBy,
        InterruptionCause cause,
        double confidence,
        List<ReliabilityRow> rows,
        List<LemonNode> lemons,
        List<NodeAdmissionFailures> admissionFailures) {

    public ReliabilityReport {
        rows = List.copyOf(rows);
        lemons = List.copyOf(lemons);
        admissionFailures = admissionFailures == null ? List.of() : List.copyOf(admissionFailures);
    }

    /** A report without admission failures. */
    public ReliabilityReport(
            Instant from,
            Instant to,
            int windowDays,
            GroupBy groupBy,
            InterruptionCause cause,
            double confidence,
            List<ReliabilityRow> rows,
            List<LemonNode> lemons) {
        this(from, to, windowDays, groupBy, cause, confidence, rows, lemons, List.of());
    }

    /** The same report with these admission failures. */
    public ReliabilityReport withAdmissionFailures(List<NodeAdmissionFailures> failures) {
        return new ReliabilityReport(from, to, windowDays, groupBy, cause, confidence, rows, lemons, failures);
    }
}
