package io.lifeline.domain.job.recovery;

import io.lifeline.domain.support.WireEnum;

/** What recovery does for an incident, the rungs of the ladder in the order it escalates. */
public enum Remedy implements WireEnum {
    /**
     * Restart the workers where they are: torchrun restarts them without recreating their pods (a hang's restart goes
     * through the agent). Expected: training resumes.
     */
    RESTART_IN_PLACE,
    /** Take one node out (cordon, evict, shrink an elastic job) and go on without it. Expected: training resumes
     * without the node, which stays out. */
    RESTART_EXCLUDING_NODE,
    /** Stop the job (checkpoint if it can, suspend) and page: restarting does not help. Expected: the job stopped. */
    STOP_AND_PAGE,
    /**
     * Leave the failure to the job, which heals its own replica failures (TorchFT drops the failed replica group from
     * its quorum and takes it back when it returns): nothing is restarted or replaced. Expected: training resumes. Not
     * a rung that escalates: restarting or replacing the job's pods is what would throw its healing away.
     */
    LEFT_TO_JOB;

    /** The next rung when this one did not reach its expected state, or null at the top. */
    public Remedy next(boolean nodeKnown) {
        return switch (this) {
            case RESTART_IN_PLACE -> nodeKnown ? RESTART_EXCLUDING_NODE : STOP_AND_PAGE;
            case RESTART_EXCLUDING_NODE -> STOP_AND_PAGE;
            case STOP_AND_PAGE, LEFT_TO_JOB -> null;
        };
    }
}
