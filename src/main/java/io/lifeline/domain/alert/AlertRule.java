package io.lifeline.domain.alert;

import java.time.Duration;
import java.util.Locale;

/**
 * The built-in alert rules, with their default settings. {@link #alertName()} is the {@code alertname} label
 * (what Alertmanager routes and groups on); {@link #key()} names the rule in configuration and the API.
 */
public enum AlertRule {
    /**
     * A job's newest good checkpoint is older than its freshness objective times {@code threshold} (1 = the objective
     * itself). Per job, only while the job is active.
     */
    CHECKPOINT_STALE(
            "checkpoint-stale",
            "CheckpointFreshnessBreached",
            new RuleSettings(true, 1.0, Duration.ofMinutes(5), Duration.ZERO, Severity.WARNING)),
    /**
     * An active job's newest good checkpoint would be lost with a node (it is on a node's local disk): its freshness
     * counts an older checkpoint, or none. Per job, only while the job is active.
     */
    CHECKPOINT_NODE_LOCAL(
            "checkpoint-node-local",
            "CheckpointNodeLocal",
            new RuleSettings(true, 1, Duration.ofMinutes(5), Duration.ZERO, Severity.WARNING)),
    /**
     * A job's latest save was refused for want of space ({@code trainer.checkpoint.failed} with reason
     * {@code no_space}) and no checkpoint completed since, within {@code window} of the refusal. Per job.
     */
    CHECKPOINT_NO_SPACE(
            "checkpoint-no-space",
            "CheckpointNoSpace",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ofHours(1), Severity.WARNING)),
    /** A job restarted at least {@code threshold} times within {@code window}. Per job. */
    RESTART_LOOP(
            "restart-loop",
            "JobRestartLoop",
            new RuleSettings(true, 3, Duration.ZERO, Duration.ofHours(1), Severity.CRITICAL)),
    /**
     * A GPU reported an XID the XID policy rates fatal (its verdict FAILED) within {@code window}. Per node and GPU.
     */
    FATAL_XID(
            "fatal-xid",
            "GpuFatalXid",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ofHours(1), Severity.CRITICAL)),
    /**
     * An interruption notice reached a node of a job, and no checkpoint of the job completed between the notice and
     * the node's termination (or the notice's deadline, once passed). Per job and incident, for {@code window}
     * after the termination or deadline.
     */
    NOTICE_UNHANDLED(
            "notice-unhandled",
            "InterruptionNoticeNotCheckpointed",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ofHours(1), Severity.WARNING)),
    /** An action ended FAILED within {@code window}. Per action. */
    ACTION_FAILED(
            "action-failed",
            "ActionFailed",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ofHours(1), Severity.WARNING)),
    /**
     * Event batches waiting to be applied to the model are at least {@code threshold} (the queue is bounded by
     * {@code lifeline.ingest.apply-queue-events} and {@code apply-queue-bytes}). Fleet-wide.
     */
    INGEST_LAG(
            "ingest-lag",
            "IngestLagHigh",
            new RuleSettings(true, 1000, Duration.ofMinutes(2), Duration.ZERO, Severity.WARNING)),
    /**
     * At least {@code threshold} events were refused as invalid (dead-lettered from Kafka or rejected over HTTP)
     * within {@code window}. Fleet-wide.
     */
    DEAD_LETTER_SPIKE(
            "dead-letter-spike",
            "DeadLetterSpike",
            new RuleSettings(true, 100, Duration.ZERO, Duration.ofMinutes(5), Severity.WARNING)),
    /** A node was interrupted at least {@code threshold} times within the fleet's lemon window. Per node. */
    LEMON_NODE("lemon-node", "LemonNode", new RuleSettings(true, 3, Duration.ZERO, Duration.ZERO, Severity.WARNING)),
    /**
     * An active job's rank 0 or rendezvous endpoint runs on spot capacity while on-demand (or reserved) capacity
     * exists in its pools. Per job; the {@code for} lets a placement that a rescale is about to change settle.
     */
    COORDINATOR_ON_SPOT(
            "coordinator-on-spot",
            "CoordinatorOnSpot",
            new RuleSettings(true, 1, Duration.ofMinutes(10), Duration.ZERO, Severity.WARNING)),
    /**
     * A rank of an active job is a straggler (persistently slower than its peers, the detector's hysteresis passed)
     * and at least {@code threshold} times as slow as their median. Per job and node.
     */
    STRAGGLER("straggler", "JobStraggler", new RuleSettings(true, 1.0, Duration.ZERO, Duration.ZERO, Severity.WARNING)),
    /**
     * A job has an open incident of cause hang: its workers are alive and none makes progress past the job's hang
     * threshold. Per job and incident, until the incident closes (training moves again, or the job ends). The
     * detector's threshold is the delay, so no {@code for} by default; critical, as every GPU of the job idles.
     */
    JOB_HUNG("job-hung", "JobHung", new RuleSettings(true, 1, Duration.ZERO, Duration.ZERO, Severity.CRITICAL)),
    /**
     * The recovery ladder decided to stop a job (a workload error, attempts without checkpoint progress, or the top of
     * its ladder) and the job is not training: a person must look. Resolves when the job trains again or ends.
     */
    JOB_RECOVERY_STOPPED(
            "job-recovery-stopped",
            "JobRecoveryStopped",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ZERO, Severity.CRITICAL)),
    /**
     * The automation brake is engaged: the policies would have taken more nodes within its window than its bounds
     * allow, and every node-taking decision is held until a person resets it. Fleet-wide, while engaged.
     */
    AUTOMATION_BRAKE(
            "automation-brake",
            "AutomationBrakeEngaged",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ZERO, Severity.CRITICAL)),
    /**
     * A goodput objective burns its error budget fast: the last hour and the last 5 minutes both burn it at least
     * {@code lifeline.objectives.fast-burn} times (14.4) the pace that spends it exactly over its window. Per objective,
     * while both hold; the 5-minute window ends it soon after the burn stops.
     */
    OBJECTIVE_FAST_BURN(
            "objective-fast-burn",
            "GoodputBudgetFastBurn",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ZERO, Severity.CRITICAL)),
    /**
     * A goodput objective burns its error budget slowly but steadily: the last 6 hours and the last 30 minutes both
     * burn it at least {@code lifeline.objectives.slow-burn} times (6) the sustainable pace. Per objective.
     */
    OBJECTIVE_SLOW_BURN(
            "objective-slow-burn",
            "GoodputBudgetSlowBurn",
            new RuleSettings(true, 1, Duration.ZERO, Duration.ZERO, Severity.WARNING)),
    /**
     * A checkpoint storage target is filling: at the jobs' current write rate (net of retention) it is full within
     * {@code lifeline.storage.alert-before} (24 h), or its free space is below {@code threshold} (2) times the largest
     * recent checkpoint written there, so the next save may not fit. Per target, while it holds.
     */
    STORAGE_FILLING(
            "storage-filling",
            "CheckpointStorageFilling",
            new RuleSettings(true, 2, Duration.ZERO, Duration.ZERO, Severity.WARNING));

    private final String key;
    private final String alertName;

    @SuppressWarnings("ImmutableEnumChecker") // RuleSettings is a record of immutable values
    private final RuleSettings defaults;

    AlertRule(String key, String alertName, RuleSettings defaults) {
        this.key = key;
        this.alertName = alertName;
        this.defaults = defaults;
    }

    /** Configuration and API name, e.g. {@code checkpoint-stale}. */
    public String key() {
        return key;
    }

    /** The {@code alertname} label, e.g. {@code CheckpointFreshnessBreached}. */
    public String alertName() {
        return alertName;
    }

    /** Built-in settings. */
    public RuleSettings defaults() {
        return defaults;
    }

    /** The rule named by its key or its alert name (case-insensitive), e.g. {@code restart-loop} or {@code JobRestartLoop}. */
    public static AlertRule parse(String s) {
        String v = s == null ? "" : s.trim();
        for (AlertRule r : values()) {
            if (r.key.equalsIgnoreCase(v)
                    || r.alertName.equalsIgnoreCase(v)
                    || r.name().equalsIgnoreCase(v)) {
                return r;
            }
        }
        throw new IllegalArgumentException("rule: unknown alert rule '" + v + "'; known: "
                + String.join(
                        ", ",
                        java.util.Arrays.stream(values()).map(AlertRule::key).toList()));
    }

    @Override
    public String toString() {
        return key.toLowerCase(Locale.ROOT);
    }
}
