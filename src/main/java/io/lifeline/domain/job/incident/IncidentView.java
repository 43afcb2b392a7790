package io.lifeline.domain.job.incident;

import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;
import java.util.List;

/**
 * One interruption of a job across layers, as operators read it.
 *
 * <p>Durations are measured on the job's accounting clock, so they agree with the goodput buckets:
 * {@code downtimeMillis} = recovery + waiting + hang while the incident was stopped (up to now when still open), plus
 * the hold before the stop when the trainers held still after an exit save for it (training stopped there; the job's
 * goodput counts the hold as rescale).
 *
 * @param id                       incident id ({@code job#n})
 * @param job                      job name
 * @param cause                    why
 * @param causeDetail              the signal that set the cause (reason, XID, error), may be null
 * @param outcome                  how it ended (or OPEN)
 * @param openedAt                 first signal
 * @param stoppedAt                when training stopped, or null (warning only)
 * @param closedAt                 when it closed, or null
 * @param originNode               the node whose signal opened or stopped it, may be null
 * @param nodes                    nodes involved (bounded)
 * @param pool                     node pool the interruption is attributed to, may be null
 * @param noticeKind               kind of the first notice, or null
 * @param noticeAt                 when the first notice came, or null
 * @param deadline                 the notice's announced deadline, or null
 * @param announcedLeadMillis      deadline − notice time, or null
 * @param actualLeadMillis         stop time − notice time, or null
 * @param checkpointBeforeExit     whether a checkpoint begun after the incident opened completed before the stop
 * @param assumedCheckpoint        checkpoint the lost work is measured from, or null (from the run's start)
 * @param restoredCheckpoint       checkpoint the run restored from, or null
 * @param restoredStep             its step, or null
 * @param lostReworkMillis         progress thrown away
 * @param recoveryMillis           recovery, all phases
 * @param recoveryDetectionMillis  recovery: detection
 * @param recoveryRestartMillis    recovery: restart and rendezvous
 * @param recoveryLoadMillis       recovery: checkpoint load
 * @param waitingMillis            waiting while stopped (preempted, suspended, queued)
 * @param hangMillis               hung before the restart (from the last progress)
 * @param downtimeMillis           training stopped (the stop, or the hold before it) to first progress (to now when open)
 * @param lostGpuHours             (lost rework + recovery) × GPUs held, in GPU-hours
 * @param gpusAtStop               GPUs held just before the stop
 * @param worldSizeBefore          ranks before the stop
 * @param worldSizeAfter           ranks after the restart, or null
 * @param workerFailures           worker failures that joined it
 * @param phases                   the steps with their times (bounded)
 * @param stopRequest              what asked the workers to stop (an eviction, a preemption), or null
 * @param stopRequestedAt          when, or null
 * @param workersStoppedAt         when the workers were seen stopped after it, or null
 * @param workersStoppedBy         the signal that showed it (an event type), or null
 * @param evictionStopMillis       workersStoppedAt − stopRequestedAt, or null while not measured
 * @param stopStep                 the job's last step when training stopped, or null
 * @param failures                 the failed workers (the newest ones), each with its exit and error
 * @param checkpointStepAtStop     the newest good checkpoint's step when training stopped, or null
 * @param membersAtStop            the nodes in the group when training stopped
 */
public record IncidentView(
        String id,
        String job,
        IncidentCause cause,
        String causeDetail,
        IncidentOutcome outcome,
        Instant openedAt,
        Instant stoppedAt,
        Instant closedAt,
        String originNode,
        List<String> nodes,
        String pool,
        NoticeKind noticeKind,
        Instant noticeAt,
        Instant deadline,
        Long announcedLeadMillis,
        Long actualLeadMillis,
        boolean checkpointBeforeExit,
        String assumedCheckpoint,
        String restoredCheckpoint,
        Long restoredStep,
        long lostReworkMillis,
        long recoveryMillis,
        long recoveryDetectionMillis,
        long recoveryRestartMillis,
        long recoveryLoadMillis,
        long waitingMillis,
        long hangMillis,
        long downtimeMillis,
        double lostGpuHours,
        int gpusAtStop,
        int worldSizeBefore,
        Integer worldSizeAfter,
        int workerFailures,
        List<PhaseStamp> phases,
        StopRequest stopRequest,
        Instant stopRequestedAt,
        Instant workersStoppedAt,
        String workersStoppedBy,
        Long evictionStopMillis,
        Long stopStep,
        List<WorkerFailure> failures,
        Long checkpointStepAtStop,
        List<String> membersAtStop) {

    /** Whether training stopped (a real interruption rather than a warning). */
    public boolean interrupted() {
        return stoppedAt != null;
    }
}
