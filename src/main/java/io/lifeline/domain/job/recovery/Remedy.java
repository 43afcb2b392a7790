package io.lifeline.domain.job.recovery;

import io.lifeline.domain.support.WireEnum;

/** What recovery does for an incident, the rungs of the ladder in the order it escalates. */
public enum Remedy implements WireEnum {
    /**
     * Restart the workers where they are: torchrun restarts them without recreating their pods (a hang's restart goes
     * through the agent). Expected: training resumes.
     */
    RESTART_IN_PLACE,
    /**
     * Delete only the job's pods on the node its workers failed on, so that the job's controller (PyTorchJob, JobSet,
     * TrainJob) recreates them, instead of restarting the whole job. Expected: the group formed again at its size and
     * training resumed.
     */
    REPLACE_FAILED_PODS,
    /** Take one node out (cordon, evict, shrink an elastic job) and go on without it. Expected: training resumes
     * without the node, which stays out. */
    RESTART_EXCLUDING_NODE,
    /**
     * An elastic job that lost a node (terminated, not ready) is rescaled to the nodes it has left, rather than
     * waiting for a replacement. Expected: the group formed without the node at the survivors' size, training resumed.
     */
    SHRINK_TO_SURVIVORS,
    /** Stop the job (checkpoint if it can, suspend) and page: restarting does not help. Expected: the job stopped. */
    STOP_AND_PAGE,
    /**
     * Leave the failure to the job, which heals its own replica failures (TorchFT drops the failed replica group from
     * its quorum and takes it back when it returns): nothing is restarted or replaced. Expected: training resumes. Not
     * a rung that escalates: restarting or replacing the job's pods is what would throw its healing away.
     */
    LEFT_TO_JOB;

    /**
     * The next rung when this one did not reach its expected state, or null at the top.
     *
     * @param nodeKnown whether the failing node is known and the job has others
     */
    public Remedy next(boolean nodeKnown) {
        return switch (this) {
            case RESTART_IN_PLACE -> nodeKnown ? REPLACE_FAILED_PODS : STOP_AND_PAGE;
            case REPLACE_FAILED_PODS -> nodeKnown ? RESTART_EXCLUDING_NODE : STOP_AND_PAGE;
            case RESTART_EXCLUDING_NODE, SHRINK_TO_SURVIVORS -> STOP_AND_PAGE;
            case STOP_AND_PAGE, LEFT_TO_JOB -> null;
        };
    }

    /** Whether it acts on one node of the job ({@link Advice#node()} names it). */
    public boolean aboutNode() {
        return this == REPLACE_FAILED_PODS || this == RESTART_EXCLUDING_NODE || this == SHRINK_TO_SURVIVORS;
    }
}
