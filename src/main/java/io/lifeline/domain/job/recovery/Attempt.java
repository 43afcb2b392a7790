package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.WorkerFailure;
import java.time.Instant;
import java.util.List;

/**
 * One (re)start of a job and how it ended: from its launch, or from the recovery of an interruption, to the next
 * interruption (or now, while it runs).
 *
 * @param number                 1 for the launch, then one more per interruption that stopped training
 * @param startedAt              when training ran (the launch, or the previous interruption's recovery), may be null
 * @param endedAt                when training stopped, null while it runs
 * @param startedAfter           the incident it recovered from, null for the launch
 * @param startCause             that incident's cause, null for the launch
 * @param endedBy                the incident that ended it, null while it runs
 * @param endCause               that incident's cause, null while it runs
 * @param endDetail              what ended it (the first signal's detail), may be null
 * @param nodes                  the nodes of its group (when it ended, or now)
 * @param failures               its failed workers, each with exit code, signal, exception type and first line
 * @param startStep              the step it started from (the one restored, 0 for the launch), null when not known
 * @param endStep                the step it reached, null when not known
 * @param stepsMade              endStep − startStep, null when either is not known
 * @param checkpointStepAtStart  the newest good checkpoint's step when it started, null when none
 * @param checkpointStepAtEnd    the newest good checkpoint's step when it ended (or now), null when none
 * @param checkpointAdvanced     whether it saved a checkpoint past the one it started from
 * @param restart                the restart that started it as its incident recorded it (a controller's counter, such
 *                               as {@code JobSet restart 2 (1 of maxRestarts 3)}, or the elastic agent's
 *                               {@code restart 3}), null for the launch or when no restart was seen
 */
public record Attempt(
        int number,
        Instant startedAt,
        Instant endedAt,
        String startedAfter,
        IncidentCause startCause,
        String endedBy,
        IncidentCause endCause,
        String endDetail,
        List<String> nodes,
        List<WorkerFailure> failures,
        Long startStep,
        Long endStep,
        Long stepsMade,
        Long checkpointStepAtStart,
        Long checkpointStepAtEnd,
        boolean checkpointAdvanced,
        String restart) {

    public Attempt {
        nodes = List.copyOf(nodes);
        failures = List.copyOf(failures);
    }

    /** Whether it still runs. */
    public boolean running() {
        return endedAt == null;
    }

    /** Whether an interruption that came with notice or a preemption ended it (not a failure). */
    public boolean endedByPlan() {
        return endCause != null && endCause.planned();
    }
}
