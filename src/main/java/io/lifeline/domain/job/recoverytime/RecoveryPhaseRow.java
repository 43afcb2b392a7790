package io.lifeline.domain.job.recoverytime;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.RecoveryPhase;
import java.util.List;

/**
 * The interruptions of one group and how their recovery time divides among the phases.
 *
 * @param group       the row's name: a cause, a pool, {@code cause · pool}, or {@code all}
 * @param cause       the cause of every interruption of the row, or null when it mixes causes
 * @param pool        the pool of every interruption of the row, or null when it mixes pools
 * @param incidents   interruptions counted
 * @param phases      one per {@link RecoveryPhase}, in their order
 */
public record RecoveryPhaseRow(String group, IncidentCause cause, String pool, int incidents, List<PhaseStats> phases) {

    public RecoveryPhaseRow {
        phases = List.copyOf(phases);
    }

    /** The figures of {@code p}. */
    public PhaseStats stats(RecoveryPhase p) {
        return phases.get(p.ordinal());
    }
}
