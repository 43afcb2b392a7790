package io.lifeline.demo;

import java.util.EnumSet;
import java.util.Set;

/**
 * Life of a simulated training job. Each phase lists the phases it may follow; {@link #checkFollows} is the
 * one place transitions are checked.
 */
enum JobPhase {
    /** Not submitted yet. */
    NEW,
    /** Submitted, waiting for the scheduler to admit it with at least min nodes. Follows NEW and SUSPENDED (resumed). */
    PENDING,
    /** Admitted; pods starting, rendezvous not yet complete. Follows PENDING. */
    STARTING,
    /** Workers stopped (failure or membership change); the agents re-rendezvous. */
    RESTARTING,
    /** Fewer than min nodes left: waiting for capacity before the next rendezvous. Follows RESTARTING. */
    WAITING,
    /** Rendezvous done; loading the newest checkpoint. Follows STARTING and RESTARTING. */
    RESTORING,
    /** Training (a checkpoint may be in progress). Follows RESTORING. */
    RUNNING,
    /** Saving a checkpoint before a planned membership change; training paused. Follows RUNNING. */
    RESCALING,
    /** Saving a checkpoint before suspending; training paused. Follows RUNNING. */
    SUSPENDING,
    /** Suspended by command; holds no nodes. Follows SUSPENDING, WAITING and PENDING. */
    SUSPENDED,
    /** Gave up after too many restarts. Follows RESTARTING. */
    FAILED;

    private Set<JobPhase> predecessors() {
        return switch (this) {
            case NEW -> EnumSet.noneOf(JobPhase.class);
            case PENDING -> EnumSet.of(NEW, SUSPENDED);
            case STARTING -> EnumSet.of(PENDING);
            case RESTARTING -> EnumSet.of(RUNNING, RESCALING, SUSPENDING, RESTORING, WAITING);
            case WAITING -> EnumSet.of(RESTARTING, STARTING);
            case RESTORING -> EnumSet.of(STARTING, RESTARTING);
            case RUNNING -> EnumSet.of(RESTORING);
            case RESCALING, SUSPENDING -> EnumSet.of(RUNNING);
            case SUSPENDED -> EnumSet.of(SUSPENDING, WAITING, PENDING);
            case FAILED -> EnumSet.of(RESTARTING);
        };
    }

    /** Throws when a job cannot move from {@code from} to this phase. */
    JobPhase checkFollows(JobPhase from) {
        if (!predecessors().contains(from)) {
            throw new IllegalStateException("job cannot go from " + from + " to " + this);
        }
        return this;
    }

    /** Whether worker processes are alive on the job's nodes (so losing a node kills ranks). */
    boolean workersAlive() {
        return this == RESTORING || this == RUNNING || this == RESCALING || this == SUSPENDING;
    }
}
