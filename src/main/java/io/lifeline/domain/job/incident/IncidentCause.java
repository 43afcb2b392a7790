package io.lifeline.domain.job.incident;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.support.WireEnum;

/**
 * Why a job was interrupted. When several signals join one incident, the cause with the higher
 * {@link #strength()} wins: a spot notice explains the termination and worker failures that follow it,
 * a GPU fault explains the node going not-ready, and any hardware signal explains a worker failure.
 */
public enum IncidentCause implements WireEnum {
    /** Not known (for example a restore or re-rendezvous without any reported failure). */
    UNKNOWN(0),
    /** Workers failed and nothing below them (node, GPU, scheduler) was reported. */
    SOFTWARE_ERROR(1),
    /** A node failed or went away without notice. */
    NODE_FAILURE(2),
    /** A planned rescale that restarted from a checkpoint and threw work away. */
    RESCALE(2),
    /**
     * The workers stayed alive without progress past the job's threshold (a stuck collective, a save that never
     * returns); the restart its recovery needs explains the worker failures that follow.
     */
    HANG(3),
    /** A GPU fault (fatal XID, failed health check) on a node of the job. */
    GPU_FAULT(3),
    /** Someone or something drained, evicted or requeued the job's pods. */
    MANUAL(4),
    /** A maintenance event announced by the provider. */
    MAINTENANCE(5),
    /** The scheduler (or a notice of kind preempt) preempted the job for higher-priority work. */
    PREEMPTION(5),
    /** The provider reclaimed spot capacity (including rebalance recommendations). */
    SPOT_RECLAIM(5);

    private final int strength;

    IncidentCause(int strength) {
        this.strength = strength;
    }

    /** How strongly this cause explains an incident that other signals also joined. */
    public int strength() {
        return strength;
    }

    /**
     * Whether an interruption of this cause came with notice or by plan (a spot reclaim, a maintenance, a preemption,
     * an operator's drain or a rescale) rather than by failure: the two are counted against separate budgets.
     */
    public boolean planned() {
        return switch (this) {
            case SPOT_RECLAIM, PREEMPTION, MAINTENANCE, MANUAL, RESCALE -> true;
            case UNKNOWN, SOFTWARE_ERROR, NODE_FAILURE, HANG, GPU_FAULT -> false;
        };
    }

    /** The cause a notice of this kind announces. */
    public static IncidentCause ofNotice(NoticeKind kind) {
        if (kind == null) {
            return UNKNOWN;
        }
        return switch (kind) {
            case SPOT_RECLAIM, REBALANCE -> SPOT_RECLAIM;
            case MAINTENANCE -> MAINTENANCE;
            case PREEMPT -> PREEMPTION;
        };
    }
}
