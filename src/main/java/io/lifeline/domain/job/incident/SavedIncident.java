package io.lifeline.domain.job.incident;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One incident's state as plain values, part of {@link SavedIncidents}; the fields are those of {@link IncidentView}
 * before any "now"-based figure is derived from them.
 *
 * @param id                    {@code job#n}
 * @param job                   the job
 * @param openedAt              when it opened
 * @param nodes                 nodes involved
 * @param phases                its steps, oldest first (the newest ones, bounded)
 * @param accrued               milliseconds per bucket accrued while stopped (buckets at zero may be left out)
 * @param accruedGpu            GPU-milliseconds per bucket, likewise
 * @param cause                 the cause that explains it best so far
 * @param causeDetail           what happened, may be null
 * @param outcome               OPEN until it closes
 * @param stoppedAt             when training stopped, null for a warning only
 * @param closedAt              when it closed, may be null
 * @param originNode            the node whose signal opened or stopped it, may be null
 * @param pool                  the pool the interruption is counted against, may be null
 * @param noticeKind            the first notice's kind, may be null
 * @param noticeAt              when it arrived, may be null
 * @param deadline              its deadline, may be null
 * @param warningExpiresMs      when a warning-only incident closes as averted ({@link Long#MAX_VALUE} when unset)
 * @param checkpointBeforeExit  whether a save protected the run before the stop
 * @param stopMark              productive time at the stop, may be null
 * @param assumedCheckpoint     the checkpoint the lost work is measured from, may be null
 * @param lostMillis            lost rework, ms
 * @param lostGpuMillis         lost rework, GPU-ms
 * @param stage                 the recovery phase reached
 * @param recoveryMarker        whether the runtime was seen restarting
 * @param stopStep              the last step before the stop, -1 when none
 * @param restoredCheckpoint    the checkpoint restored, may be null
 * @param restoredStep          the step restored, null before a restore
 * @param gpusAtStop            GPUs held before the stop
 * @param worldSizeBefore       ranks before the stop
 * @param worldSizeAfter        ranks after recovering, may be null
 * @param workerFailures        worker failures joined
 * @param epochAtStop           the lineage epoch running at the stop, -1 before it
 * @param stopLatency           the eviction → stop time so far (null in a checkpoint of an older release: none)
 * @param failures              the failed workers, newest last (bounded), null in an older checkpoint
 * @param checkpointStepAtStop  the newest good checkpoint's step when training stopped, may be null
 * @param membersAtStop         the group's nodes when training stopped, null in an older checkpoint
 */
public record SavedIncident(
        String id,
        String job,
        Instant openedAt,
        List<String> nodes,
        List<PhaseStamp> phases,
        Map<Bucket, Long> accrued,
        Map<Bucket, Long> accruedGpu,
        IncidentCause cause,
        String causeDetail,
        IncidentOutcome outcome,
        Instant stoppedAt,
        Instant closedAt,
        String originNode,
        String pool,
        NoticeKind noticeKind,
        Instant noticeAt,
        Instant deadline,
        long warningExpiresMs,
        boolean checkpointBeforeExit,
        ProductiveMark stopMark,
        String assumedCheckpoint,
        long lostMillis,
        long lostGpuMillis,
        Bucket stage,
        boolean recoveryMarker,
        long stopStep,
        String restoredCheckpoint,
        Long restoredStep,
        int gpusAtStop,
        int worldSizeBefore,
        Integer worldSizeAfter,
        int workerFailures,
        int epochAtStop,
        StopLatency stopLatency,
        List<WorkerFailure> failures,
        Long checkpointStepAtStop,
        List<String> membersAtStop) {

    public SavedIncident {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(outcome, "outcome");
        nodes = List.copyOf(nodes);
        phases = List.copyOf(phases);
        accrued = Map.copyOf(accrued);
        accruedGpu = Map.copyOf(accruedGpu);
    }
}
