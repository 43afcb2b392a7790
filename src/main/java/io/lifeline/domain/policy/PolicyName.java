package io.lifeline.domain.policy;

import java.util.Arrays;
import java.util.Optional;

/** The built-in automation policies; each requests actions as {@code policy:<wire name>}. */
public enum PolicyName {
    /** An interruption notice on a node: checkpoint its jobs, then drain it inside the notice. */
    NOTICE_CHECKPOINT_DRAIN("notice-checkpoint-drain"),
    /** A fatal XID on a GPU: drain its node and shrink its elastic jobs. */
    FATAL_XID_DRAIN("fatal-xid-drain"),
    /** Capacity came back: grow shrunk elastic jobs to their maximum. */
    CAPACITY_GROW("capacity-grow"),
    /** A job's newest checkpoint is older than its objective: checkpoint now. */
    STALE_CHECKPOINT("stale-checkpoint"),
    /** A job restarts in a loop: suspend it. */
    RESTART_LOOP_SUSPEND("restart-loop-suspend"),
    /** A co-location window open (or inference demand high) in a pool: shrink its training, checkpoint first. */
    COLOCATION("colocation"),
    /** A job hung (alive, no progress): capture its stacks, restart its workers; drain a node that hangs repeatedly. */
    HANG_RECOVERY("hang-recovery"),
    /** A node drained for a GPU fault passed its validation: uncordon it. */
    BACK_TO_SERVICE("back-to-service"),
    /**
     * A job stopped by failure: decide a remedy from its attempts (restart in place, restart without a node, stop and
     * page), record it before acting, check it reached its state and escalate when not.
     */
    RECOVERY_LADDER("recovery-ladder"),
    /**
     * A Ready node whose kubelet keeps rejecting the pods sent to it (admission or device allocation failing, as when
     * one lost GPU fails every allocation): cordon it, with the rejections as evidence.
     */
    ADMISSION_FAILURE_CORDON("admission-failure-cordon");

    private final String wire;

    PolicyName(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public String requester() {
        return "policy:" + wire;
    }

    public static Optional<PolicyName> fromWire(String s) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(s)).findFirst();
    }
}
