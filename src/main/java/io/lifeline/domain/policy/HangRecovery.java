package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code hang-recovery} policy: a job in an open hang incident whose workers have not been restarted yet gets its
 * stacks captured and its workers restarted ({@link ActionKind#RESTART_WORKERS}); a node named in hangs of
 * {@link #REPEATS} incidents within {@link #WINDOW} (of any job) is drained, with the incidents as its reason. Never
 * acts on a job that is not in a hang incident: a declared phase inside its threshold, or a save inside its expected
 * time, never becomes one.
 */
final class HangRecovery {

    /** Hangs on one node that make it suspect. */
    static final int REPEATS = 2;
    /** Within this window. */
    static final Duration WINDOW = Duration.ofHours(24);

    private HangRecovery() {}

    static List<PolicyDecision> decisions(PolicySettings settings, Jobs jobs, Fleet fleet, Instant now) {
        List<PolicyDecision> out = new ArrayList<>();
        for (JobSummary j : jobs.list(io.lifeline.domain.job.JobFilter.all())) {
            if (j.state() != JobState.RECOVERING || j.openIncident() == null) {
                continue;
            }
            PolicyMode mode = settings.modeFor(PolicyName.HANG_RECOVERY, j.namespace(), j.pool());
            if (mode == PolicyMode.OFF) {
                continue;
            }
            List<IncidentView> incidents = jobs.incidents(j.name()).orElse(List.of());
            IncidentView open = incidents.isEmpty() ? null : incidents.get(incidents.size() - 1);
            if (open == null
                    || open.outcome() != IncidentOutcome.OPEN
                    || open.cause() != IncidentCause.HANG
                    || restarted(open)) {
                continue;
            }
            out.add(new PolicyDecision(
                    PolicyName.HANG_RECOVERY,
                    mode,
                    new ActionRequest(
                            ActionKind.RESTART_WORKERS,
                            j.name(),
                            Map.of(),
                            "incident " + open.id() + ": " + open.causeDetail()),
                    "hang:" + j.name() + ":" + open.id()));
            for (String node : open.nodes()) {
                int hangs = hangsOn(jobs, node, now);
                if (hangs >= REPEATS && fleet.node(node).map(d -> !d.cordoned()).orElse(false)) {
                    out.add(new PolicyDecision(
                            PolicyName.HANG_RECOVERY,
                            mode,
                            new ActionRequest(
                                    ActionKind.DRAIN,
                                    node,
                                    Map.of("deadlineSeconds", "600"),
                                    "node " + node + " is named in " + hangs + " hang incidents within "
                                            + WINDOW.toHours() + " h (the latest " + open.id() + " of " + j.name()
                                            + ")"),
                            "hang-node:" + node + ":" + open.id()));
                }
            }
        }
        return out;
    }

    /** Whether the runtime already restarted the workers (a restart, a new group or a restore since the hang). */
    private static boolean restarted(IncidentView open) {
        return open.phases().stream()
                .anyMatch(p -> p.phase() == IncidentPhase.RESTARTED
                        || p.phase() == IncidentPhase.REJOINED
                        || p.phase() == IncidentPhase.RESTORED);
    }

    /** Hang incidents of any job that name {@code node}, opened within the window. Only run for an open hang. */
    private static int hangsOn(Jobs jobs, String node, Instant now) {
        Instant from = now.minus(WINDOW);
        int n = 0;
        for (String job : jobs.jobsOn(node)) {
            for (IncidentView i : jobs.incidents(job).orElse(List.of())) {
                if (i.cause() == IncidentCause.HANG
                        && i.nodes().contains(node)
                        && i.openedAt().isAfter(from)) {
                    n++;
                }
            }
        }
        return n;
    }
}
