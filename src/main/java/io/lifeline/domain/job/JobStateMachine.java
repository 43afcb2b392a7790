package io.lifeline.domain.job;

import java.time.Instant;

/**
 * The one place where a job changes state. A transition is legal when the target lists the current
 * state among its predecessors ({@link JobState#canFollow}); an illegal one is refused, recorded with
 * its reason on the job, and leaves the job as it was. Asking for the current state is a no-op.
 */
final class JobStateMachine {

    private JobStateMachine() {}

    /**
     * Moves the job to {@code to}.
     *
     * @param job    the job
     * @param to     target state
     * @param at     event time
     * @param cause  what asks for it (event type or signal), for the timeline and refusals
     * @return whether the job is now in {@code to}
     */
    static boolean move(Job job, JobState to, Instant at, String cause) {
        JobState from = job.state;
        if (from == to) {
            return true;
        }
        if (!to.canFollow(from)) {
            String reason = from.isTerminal()
                    ? "job already ended as " + from
                    : to + " cannot follow " + from + " (legal predecessors: " + to.predecessors() + ")";
            job.refusals.add(new RefusedTransition(from, to, at, cause, reason));
            return false;
        }
        job.state = to;
        job.stateSince = at;
        job.timeline(at, TimelineEntry.Kind.TRANSITION, from + "->" + to, from + " → " + to + " (" + cause + ")");
        return true;
    }
}
