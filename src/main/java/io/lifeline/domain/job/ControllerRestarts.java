package io.lifeline.domain.job;

import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentPhase;
import java.time.Instant;

/**
 * A restart the job's controller counted ({@code job.restarted}: JobSet's {@code status.restarts} or its in-place
 * restart attempt). The pods usually told first: their failures opened and stopped an incident, and the restart then
 * joins it as its restart (which the next attempt carries), never as a second incident. Only a restart nothing else
 * showed stops the job itself; a counter already seen, or one whose restart the job has trained past already (a late
 * report, or an old counter seen for the first time), moves nothing.
 */
final class ControllerRestarts {

    private ControllerRestarts() {}

    static void apply(Interruptions interruptions, Job job, Instant at, JobData.Restarted d, String type) {
        boolean inPlace = "in-place".equals(d.kind());
        int seen = inPlace ? job.controllerInPlaceRestarts : job.controllerRestarts;
        if (d.attempt() <= seen) {
            return;
        }
        if (inPlace) {
            job.controllerInPlaceRestarts = d.attempt();
        } else {
            job.controllerRestarts = d.attempt();
        }
        if (job.state.isTerminal()) {
            return;
        }
        String detail = d.describe();
        Incident open = job.incidents.open();
        if (open == null || !open.stopped()) {
            if (job.lastProgressAt != null && job.lastProgressAt.isAfter(at)) {
                return; // trained since: a restart already over (its incident, if any, closed with what it saw)
            }
            interruptions.interrupt(job, at, IncidentCause.UNKNOWN, null, detail, JobState.RECOVERING, type);
        }
        if (job.state.isWaiting()) {
            JobStateMachine.move(job, JobState.RECOVERING, at, type);
        }
        interruptions.marker(job, at, IncidentPhase.RESTARTED, Bucket.RECOVERY_RESTART, detail);
        Incident inc = job.incidents.open();
        if (inc != null && inc.stopped()) {
            inc.workersStopped(at, type);
        }
    }
}
