package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.WorkerFailure;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryCheck;
import io.lifeline.domain.job.recovery.RecoveryDecider;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code recovery-ladder} policy. For each incident that stopped a job by failure it decides one remedy from what
 * the job's attempts taught ({@link RecoveryDecider}) and records it as advice before anything is done; it checks
 * pending advice against fresh observations ({@link RecoveryCheck}) and, when the expected state is not reached,
 * records the failure and the next rung. Advice is written into the event log ({@link Entry}), so every replica and
 * every rebuild holds the same; the actions of pending advice are then requested like any policy's (a drain passes
 * the automation brake; in dry-run they are recorded, not done).
 */
public final class RecoveryLadder {

    /** An advice or a check to write into the event log as a {@code job.*} event. */
    public record Entry(String job, String id, JobData data) {}

    private RecoveryLadder() {}

    /** New advice for stopped incidents without any, and the checks of pending advice (with their next rungs). */
    static List<Entry> review(PolicySettings settings, RecoveryRules rules, Jobs jobs, Fleet fleet, Instant now) {
        List<Entry> out = new ArrayList<>();
        for (JobSummary j : jobs.list(JobFilter.all())) {
            PolicyMode mode = settings.modeFor(PolicyName.RECOVERY_LADDER, j.namespace(), j.pool());
            if (mode == PolicyMode.OFF) {
                continue;
            }
            List<Advice> advice = jobs.recoveryAdvice(j.name()).orElse(List.of());
            for (Advice a : advice) {
                if (a.pending()) {
                    check(rules, jobs, fleet, a, mode, now, out);
                }
            }
            if (j.openIncident() != null
                    && advice.stream().noneMatch(a -> a.incident().equals(j.openIncident()))) {
                IncidentView open = openIncident(jobs, j.name());
                // Planned interruptions are never decided (RecoveryDecider): no need to gather the job's facts.
                if (open != null && open.interrupted() && !open.cause().planned()) {
                    Advice first = RecoveryDecider.decide(
                            rules,
                            j.name(),
                            open,
                            jobs.attempts(j.name()).orElse(List.of()),
                            facts(jobs, fleet, j.name(), open),
                            mode.wire(),
                            now);
                    if (first != null) {
                        out.add(advised(first));
                    }
                }
            }
        }
        return out;
    }

    /**
     * What the rules need beyond the attempts: the job's elastic minimum, whether torchrun can still restart its workers
     * in place, and which of the incident's nodes the fleet has lost (terminated, not ready).
     */
    static RecoveryDecider.JobFacts facts(Jobs jobs, Fleet fleet, String job, IncidentView incident) {
        JobDetail detail = jobs.detail(job).orElse(null);
        ElasticPolicy elastic = detail == null ? null : detail.elastic();
        String healer = detail == null || detail.healsItself() == null
                ? null
                : detail.healsItself().runtime();
        // Only an elastic job's torchrun restarts its workers in place, up to its --max-restarts.
        boolean spent = elastic != null
                && jobs.budgets(job, null, null).map(Budgets::failuresSpent).orElse(false);
        Set<String> candidates = new LinkedHashSet<>(incident.nodes());
        if (incident.originNode() != null) {
            candidates.add(incident.originNode());
        }
        incident.failures().forEach(f -> {
            if (f.node() != null) {
                candidates.add(f.node());
            }
        });
        Map<String, String> lost = new LinkedHashMap<>();
        for (String n : candidates) {
            fleet.node(n).map(NodeDetail::state).ifPresent(state -> {
                if (state == NodeLifecycle.TERMINATED) {
                    lost.put(n, "terminated");
                } else if (state == NodeLifecycle.NOT_READY) {
                    lost.put(n, "not ready");
                }
            });
        }
        return new RecoveryDecider.JobFacts(elastic == null ? null : elastic.minNodes(), !spent, lost, healer);
    }

    private static void check(
            RecoveryRules rules, Jobs jobs, Fleet fleet, Advice a, PolicyMode mode, Instant now, List<Entry> out) {
        Boolean cordoned = a.node() == null
                ? null
                : fleet.node(a.node()).map(NodeDetail::cordoned).orElse(null);
        RecoveryCheck.Observation o = jobs.observe(a.job(), a.incident(), cordoned, a.node(), a.decidedAt())
                .orElse(null);
        if (o == null) {
            return;
        }
        RecoveryCheck.Result r = RecoveryCheck.check(a, o, rules, now);
        if (r.verdict() == Verdict.PENDING) {
            return;
        }
        out.add(new Entry(
                a.job(),
                eventId(a, "checked"),
                new JobData.RecoveryChecked(a.incident(), a.rung(), r.verdict().wire(), r.reason())));
        if (r.verdict() == Verdict.FAILED) {
            Advice failed = a.checked(r.verdict(), r.reason(), now);
            IncidentView incident = incident(jobs, a.job(), a.incident());
            Advice next = RecoveryDecider.escalate(
                    rules, failed, failingNode(incident), o.nodes().size(), mode.wire(), now);
            if (next != null) {
                out.add(advised(next));
            }
        }
    }

    /**
     * The actions pending advice asks for: a replacement of the failed node's pods, a drain of the node to exclude, a
     * rescale to the survivors, a preemption of a job to stop. Those that take a node pass the automation brake.
     */
    static List<PolicyDecision> decisions(PolicySettings settings, Jobs jobs, Fleet fleet) {
        List<PolicyDecision> out = new ArrayList<>();
        for (JobSummary j : jobs.list(JobFilter.all())) {
            // Turned off since: pending advice is left as recorded, and nothing more is done for it.
            if (settings.modeFor(PolicyName.RECOVERY_LADDER, j.namespace(), j.pool()) == PolicyMode.OFF) {
                continue;
            }
            for (Advice a : jobs.recoveryAdvice(j.name()).orElse(List.of())) {
                if (!a.pending()) {
                    continue;
                }
                PolicyMode mode = PolicyMode.fromWire(a.mode()).orElse(PolicyMode.DRY_RUN);
                String reason = "recovery advice " + a.id() + " (" + a.rule() + "): "
                        + a.remedy().wire()
                        + (a.evidence().isEmpty() ? "" : "; " + a.evidence().get(0));
                String key = "recovery:" + a.job() + ":" + a.id();
                if (a.remedy() == Remedy.REPLACE_FAILED_PODS && j.state().isActive() && a.node() != null) {
                    // Deletes the job's pods on the node: counted by the automation brake like a drain of it.
                    out.add(new PolicyDecision(
                                    PolicyName.RECOVERY_LADDER,
                                    mode,
                                    new ActionRequest(
                                            ActionKind.REPLACE_PODS, a.job(), Map.of("node", a.node()), reason),
                                    key)
                            .takingNode(a.node()));
                } else if (a.remedy() == Remedy.SHRINK_TO_SURVIVORS && j.state().isActive() && a.node() != null) {
                    int survivors = survivors(jobs, a);
                    // Asked for every round while pending: its idempotency key makes it one action.
                    if (survivors > 0) {
                        out.add(new PolicyDecision(
                                        PolicyName.RECOVERY_LADDER,
                                        mode,
                                        new ActionRequest(
                                                ActionKind.RESCALE,
                                                a.job(),
                                                Map.of("workers", Integer.toString(survivors)),
                                                reason),
                                        key)
                                .takingNode(a.node()));
                    }
                } else if (a.remedy() == Remedy.RESTART_EXCLUDING_NODE
                        && fleet.node(a.node()).map(d -> !d.cordoned()).orElse(false)) {
                    out.add(new PolicyDecision(
                            PolicyName.RECOVERY_LADDER,
                            mode,
                            new ActionRequest(
                                    ActionKind.DRAIN,
                                    a.node(),
                                    Map.of("deadlineSeconds", "600", "allowDelete", "true"),
                                    reason),
                            key));
                } else if (a.remedy() == Remedy.STOP_AND_PAGE && j.state().isActive()) {
                    out.add(new PolicyDecision(
                            PolicyName.RECOVERY_LADDER,
                            mode,
                            new ActionRequest(ActionKind.PREEMPT, a.job(), Map.of(), reason),
                            key));
                }
            }
        }
        return out;
    }

    /** How many nodes a shrink leaves the job: those of its group when the incident stopped it, but the lost one. */
    private static int survivors(Jobs jobs, Advice a) {
        IncidentView incident = incident(jobs, a.job(), a.incident());
        return incident == null
                ? 0
                : RecoveryDecider.survivors(incident.membersAtStop(), a.node()).size();
    }

    /** The node an incident points at: the one its failures were on (when only one), else the one that stopped it. */
    static String failingNode(IncidentView incident) {
        if (incident == null) {
            return null;
        }
        String node = null;
        for (WorkerFailure f : incident.failures()) {
            if (f.node() != null) {
                if (node != null && !node.equals(f.node())) {
                    return null;
                }
                node = f.node();
            }
        }
        return node != null ? node : incident.originNode();
    }

    private static Entry advised(Advice a) {
        return new Entry(
                a.job(),
                eventId(a, "advised"),
                new JobData.RecoveryAdvised(
                        a.incident(),
                        a.rung(),
                        a.remedy().wire(),
                        a.node(),
                        a.rule(),
                        a.rulesVersion(),
                        a.evidence(),
                        a.expected(),
                        a.deadline(),
                        a.mode()));
    }

    /** One id per advice and verdict: a second leader, or a second round, writing the same one writes a duplicate. */
    private static String eventId(Advice a, String what) {
        return "recovery-" + a.incident().replace('/', '.').replace('#', '-') + "-" + a.rung() + "-" + what;
    }

    private static IncidentView openIncident(Jobs jobs, String job) {
        List<IncidentView> all = jobs.incidents(job).orElse(List.of());
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    private static IncidentView incident(Jobs jobs, String job, String id) {
        for (IncidentView i : jobs.incidents(job).orElse(List.of())) {
            if (i.id().equals(id)) {
                return i;
            }
        }
        return null;
    }
}
