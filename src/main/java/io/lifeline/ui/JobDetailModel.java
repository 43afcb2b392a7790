package io.lifeline.ui;

import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.hang.StackCaptureView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.job.spot.SpotReport;
import io.lifeline.domain.storage.StorageTargetView;
import java.time.Instant;
import java.util.List;

/**
 * What the job detail page shows.
 *
 * @param at           model time of the read
 * @param detail       the job at a glance (summary, goodput, freshness, elastic policy, open incident)
 * @param incidents    its incidents, oldest first
 * @param checkpoints  its checkpoints with lineage and verification
 * @param membership   its membership history and world size over time
 * @param advice       checkpoint-interval advice
 * @param spot         the spot placement check, the interval per capacity type and the spot-vs-on-demand verdict
 * @param hang         whether it is hung now, or null
 * @param stacks       its newest stack capture, grouped, or null before any
 * @param recovery     the recovery ladder's mode, the two budgets, the advice and the attempts, or null
 * @param storage      the storage targets it writes to, each with every job's figures
 */
public record JobDetailModel(
        Instant at,
        JobDetail detail,
        List<IncidentView> incidents,
        CheckpointHistory checkpoints,
        MembershipView membership,
        IntervalAdvice advice,
        SpotReport spot,
        HangVerdict hang,
        StackCaptureView stacks,
        RecoveryView recovery,
        List<StorageTargetView> storage) {

    public JobDetailModel {
        storage = storage == null ? List.of() : List.copyOf(storage);
    }

    public String name() {
        return detail.summary().name();
    }

    public String namespace() {
        return detail.summary().namespace();
    }
}
