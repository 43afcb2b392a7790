package io.lifeline.domain.job.incident;

import io.lifeline.domain.support.WireEnum;

/**
 * The phases an interruption's cost divides into, in the order they happen. They are read from what an incident
 * keeps (its goodput buckets and its phase stamps, see {@link PhaseSplit}); where the model records no boundary
 * between two neighbours, the later one is folded into the earlier, as each constant says.
 */
public enum RecoveryPhase implements WireEnum {
    /**
     * Until the interruption was known and acted on: the recovery-detection bucket (from the stop until the runtime's
     * first sign of restarting), and for a hang the time it went unsuspected (from the last progress to the
     * suspicion). Without a hang no event marks a decision apart from the action that follows it, so for every other
     * cause the decision is folded in here.
     */
    DETECTION,
    /** A hang's time from the suspicion until the first sign of recovery (the restart someone or a policy chose). */
    DECISION,
    /**
     * Off its nodes and back on others: waiting (preempted, suspended, requeued) and, after a re-admission by the
     * scheduler, the time until the workers restarted (pods placed and started).
     */
    RESCHEDULING,
    /** The rest of the restart bucket: workers restarted until the new group formed (re-rendezvous). */
    RENDEZVOUS,
    /** The load bucket: from the new group until the first progress, the checkpoint's load included. */
    RESTORE,
    /** Progress made since the last good checkpoint and thrown away (made again after the restart). */
    LOST_REWORK
}
