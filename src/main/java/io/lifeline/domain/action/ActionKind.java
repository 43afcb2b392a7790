package io.lifeline.domain.action;

import java.util.Arrays;
import java.util.Optional;

/** What an action does; its wire name is what the API and audit show. */
public enum ActionKind {
    /** Ask a job's trainers to save a checkpoint now, and wait for it. Target: a job ({@code namespace/name}). */
    CHECKPOINT_NOW("checkpoint-now", TargetKind.JOB),
    /** Cordon a node, save and evict the jobs on it, shrink elastic jobs. Target: a node. */
    DRAIN("drain", TargetKind.NODE),
    /** Checkpoint a job, then suspend it. Target: a job. */
    PREEMPT("preempt", TargetKind.JOB),
    /** Resume a suspended job. Target: a job. */
    RESUME("resume", TargetKind.JOB),
    /** Change an elastic job's worker count within its bounds. Target: a job. */
    RESCALE("rescale", TargetKind.JOB),
    /** Restart a job from a chosen, complete checkpoint. Target: a job. */
    RESTORE("restore", TargetKind.JOB),
    /**
     * Capture every rank's stacks, then make the job's workers exit so that their runtime (torchrun) restarts them
     * from the newest checkpoint; done when training moves again. What a hang needs. Target: a job.
     */
    RESTART_WORKERS("restart-workers", TargetKind.JOB),
    /**
     * Delete a job's pods on one node (parameter {@code node}) so that the job's controller (PyTorchJob, JobSet,
     * TrainJob) recreates them, instead of restarting the whole job: what a node's failed workers need when they cannot
     * restart in place. Target: a job.
     */
    REPLACE_PODS("replace-pods", TargetKind.JOB),
    /** Lift a node's cordon. Target: a node. */
    UNCORDON("uncordon", TargetKind.NODE),
    /**
     * Cordon a node and nothing more: the work running on it stays (a node that rejects every new pod may still run
     * its old ones well). Target: a node.
     */
    CORDON("cordon", TargetKind.NODE);

    /** Whether an action aims at a node or a job. */
    public enum TargetKind {
        NODE,
        JOB
    }

    private final String wire;
    private final TargetKind targetKind;

    ActionKind(String wire, TargetKind targetKind) {
        this.wire = wire;
        this.targetKind = targetKind;
    }

    public String wire() {
        return wire;
    }

    public TargetKind targetKind() {
        return targetKind;
    }

    public static Optional<ActionKind> fromWire(String wire) {
        return Arrays.stream(values()).filter(k -> k.wire.equals(wire)).findFirst();
    }
}
