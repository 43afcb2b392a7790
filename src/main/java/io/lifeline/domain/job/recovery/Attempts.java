package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.PhaseStamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's attempts, read from its incidents: each interruption that stopped training ends one attempt, and its
 * recovery starts the next. Only the incidents the job keeps are read, so the oldest attempts fall away with them;
 * numbers still count from the launch.
 */
public final class Attempts {

    private Attempts() {}

    /**
     * The attempts, oldest first; the last one runs unless the job is recovering (then the last ended and the next has
     * not started).
     *
     * @param incidents       the job's kept incidents, oldest first, the open one last
     * @param interruptions   interruptions since the job was first seen (incidents that fell away included)
     * @param launchedAt      when the job first trained (or was submitted), may be null
     * @param lastStep        the job's newest step, or null
     * @param checkpointStep  the newest good checkpoint's step now, or null
     * @param nodesNow        the group's nodes now
     */
    public static List<Attempt> of(
            List<IncidentView> incidents,
            int interruptions,
            Instant launchedAt,
            Long lastStep,
            Long checkpointStep,
            List<String> nodesNow) {
        List<IncidentView> stops =
                incidents.stream().filter(IncidentView::interrupted).toList();
        List<Attempt> out = new ArrayList<>(stops.size() + 1);
        int first = Math.max(1, interruptions - stops.size() + 1);
        IncidentView before = null;
        for (int i = 0; i < stops.size(); i++) {
            IncidentView end = stops.get(i);
            out.add(attempt(first + i, before, end, launchedAt, lastStep, checkpointStep, nodesNow));
            before = end;
        }
        if (before == null || before.outcome() != IncidentOutcome.OPEN) {
            out.add(attempt(first + stops.size(), before, null, launchedAt, lastStep, checkpointStep, nodesNow));
        }
        return out;
    }

    private static Attempt attempt(
            int number,
            IncidentView before,
            IncidentView end,
            Instant launchedAt,
            Long lastStep,
            Long checkpointStep,
            List<String> nodesNow) {
        Instant startedAt = before == null ? launchedAt : before.closedAt();
        Long startStep = before == null ? (number == 1 ? Long.valueOf(0) : null) : before.restoredStep();
        Long cpStart = before == null
                ? null
                : before.restoredStep() != null ? before.restoredStep() : before.checkpointStepAtStop();
        Long endStep = end == null ? lastStep : end.stopStep();
        Long cpEnd = end == null ? checkpointStep : end.checkpointStepAtStop();
        Long made = startStep != null && endStep != null ? Math.max(0, endStep - startStep) : null;
        boolean advanced = cpEnd != null && (cpStart == null || cpEnd > cpStart);
        return new Attempt(
                number,
                startedAt,
                end == null ? null : end.stoppedAt(),
                before == null ? null : before.id(),
                before == null ? null : before.cause(),
                end == null ? null : end.id(),
                end == null ? null : end.cause(),
                end == null ? null : end.causeDetail(),
                end == null ? nodesNow : end.membersAtStop(),
                end == null ? List.of() : end.failures(),
                startStep,
                endStep,
                made,
                cpStart,
                cpEnd,
                advanced,
                restart(before));
    }

    /** The newest restart the incident recorded (the last wins: a controller's counter after the agent's). */
    private static String restart(IncidentView incident) {
        if (incident == null) {
            return null;
        }
        String out = null;
        for (PhaseStamp p : incident.phases()) {
            if (p.phase() == IncidentPhase.RESTARTED && p.detail() != null) {
                out = p.detail();
            }
        }
        return out;
    }
}
