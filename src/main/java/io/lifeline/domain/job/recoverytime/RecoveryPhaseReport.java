package io.lifeline.domain.job.recoverytime;

import java.time.Instant;
import java.util.List;

/**
 * Recovery time by phase over one window: the interruptions that stopped training within it and have closed (they
 * recovered, or their job ended), one row per group and one for them all.
 *
 * @param from        the window's start
 * @param to          its end (now)
 * @param windowDays  the window in days
 * @param groupBy     what the rows group by
 * @param all         every interruption of the window together ({@code group} "all")
 * @param rows        one per group, the most interruptions first, then by name
 */
public record RecoveryPhaseReport(
        Instant from,
        Instant to,
        int windowDays,
        PhaseGroupBy groupBy,
        RecoveryPhaseRow all,
        List<RecoveryPhaseRow> rows) {

    /** The name of the row of every interruption. */
    public static final String ALL = "all";

    public RecoveryPhaseReport {
        rows = List.copyOf(rows);
    }
}
