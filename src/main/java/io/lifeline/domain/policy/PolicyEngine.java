package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeInfo;
import io.lifeline.domain.gpu.XidAction;
import io.lifeline.domain.gpu.XidRule;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Budgets;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.objective.JobObjectives;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns what happens into the actions the policies want. Two entry points: {@link #onEvent} for what must be
 * answered at once (an interruption notice, a fatal XID), on the model's thread right after the event is applied,
 * and {@link #periodic} for conditions that build up (stale checkpoints, restart loops, capacity coming back).
 * Pure: it reads the model and returns decisions; an edge submits them.
 */
public final class PolicyEngine {

    /** Seconds kept back from a notice's deadline for the eviction itself. */
    static final long EVICTION_MARGIN_SECONDS = 10;
    /** A notice without a deadline is treated as the common two-minute spot warning. */
    static final long DEFAULT_NOTICE_SECONDS = 120;

    private volatile PolicySettings settings;
    private volatile ColocationPolicy colocation = ColocationPolicy.NONE;
    private final PolicyHygiene hygiene = new PolicyHygiene();
    private volatile BackToService.Settings backToService = BackToService.Settings.defaults();
    private volatile RecoveryRules recoveryRules = RecoveryRules.defaults();
    private volatile JobObjectives objectives = JobObjectives.NONE;
    private volatile boolean staleOnlyWhenBurning;

    public PolicyEngine(PolicySettings settings) {
        this.settings = settings;
    }

    public void settings(PolicySettings s) {
        this.settings = s;
    }

    public PolicySettings settings() {
        return settings;
    }

    /** The co-location windows and demand triggers in force, with the triggers' latest states. */
    public void colocation(ColocationPolicy c) {
        this.colocation = c;
    }

    public ColocationPolicy colocation() {
        return colocation;
    }

    /** How a node drained for a GPU fault is validated before it returns to service. */
    public void backToService(BackToService.Settings s) {
        this.backToService = java.util.Objects.requireNonNull(s, "settings");
    }

    /** The rules the recovery ladder decides by. */
    public void recoveryRules(RecoveryRules r) {
        this.recoveryRules = java.util.Objects.requireNonNull(r, "rules");
    }

    public RecoveryRules recoveryRules() {
        return recoveryRules;
    }

    /** What the goodput objectives say of each job: read by the policies that act only on jobs burning a budget. */
    public void objectives(JobObjectives o) {
        this.objectives = java.util.Objects.requireNonNull(o, "objectives");
    }

    /** The objectives the policies read ({@link JobObjectives#NONE} until some are given). */
    public JobObjectives objectives() {
        return objectives;
    }

    /**
     * Whether {@code stale-checkpoint} acts only on jobs under an objective whose budget is burning (a stale checkpoint
     * of a job inside its budget costs a save and nothing else), rather than on every job whose checkpoint is stale.
     */
    public void staleCheckpointOnlyWhenBurning(boolean only) {
        this.staleOnlyWhenBurning = only;
    }

    public boolean staleCheckpointOnlyWhenBurning() {
        return staleOnlyWhenBurning;
    }

    /**
     * A job's recovery as operators read it (the REST API and the dashboard alike): the ladder's mode for the job's
     * namespace and pool, the rules in force, the two budgets, its advice and its attempts; empty for an unknown job.
     * Runs on the model's thread.
     */
    public Optional<RecoveryView> recoveryView(Jobs jobs, String job) {
        RecoveryRules rules = recoveryRules;
        PolicySettings s = settings;
        return jobs.detail(job).map(d -> {
            JobSummary summary = d.summary();
            List<Advice> advice = jobs.recoveryAdvice(job).orElse(List.of());
            return new RecoveryView(
                    job,
                    s.modeFor(PolicyName.RECOVERY_LADDER, summary.namespace(), summary.pool())
                            .wire(),
                    rules.version(),
                    rules.table(),
                    jobs.budgets(job, rules.failureBudget(), rules.plannedBudget())
                            .orElseThrow(),
                    advice.isEmpty() ? null : advice.get(advice.size() - 1),
                    advice,
                    jobs.attempts(job).orElse(List.of()));
        });
    }

    /**
     * What the recovery ladder records now: advice for incidents without any, verdicts on pending advice and the next
     * rungs; each to be written into the event log before {@link #periodic} requests the actions of pending advice.
     */
    public List<RecoveryLadder.Entry> recovery(Jobs jobs, Fleet fleet, Instant now) {
        return RecoveryLadder.review(settings, recoveryRules, jobs, fleet, now);
    }

    /** What keeps the periodic decisions from commanding trainers that cannot obey, and from retrying failures. */
    public PolicyHygiene hygiene() {
        return hygiene;
    }

    /**
     * Decisions an applied event calls for; cheap for every other event (one switch on its type). Only an event that
     * changed the model calls for any: one that was not applied (a stale notice, one past its deadline) is not news,
     * and a repeat was answered when it first came.
     *
     * @param outcome  what applying {@code e} did to the model
     */
    public List<PolicyDecision> onEvent(Event e, ApplyOutcome outcome, Jobs jobs, Fleet fleet, Instant now) {
        if (!outcome.changed()) {
            return List.of();
        }
        if (e.type() == EventType.NODE_INTERRUPTION_NOTICE && e.data() instanceof NodeData.InterruptionNotice n) {
            PolicyMode mode = settings.modeFor(PolicyName.NOTICE_CHECKPOINT_DRAIN, null, poolOf(fleet, e.subject()));
            if (mode == PolicyMode.OFF) {
                return List.of();
            }
            long left = n.deadline() == null
                    ? DEFAULT_NOTICE_SECONDS
                    : Duration.between(now, n.deadline()).getSeconds() - EVICTION_MARGIN_SECONDS;
            long deadline = Math.max(1, left);
            String key = "notice:" + e.subject() + ":"
                    + (n.deadline() == null ? e.id() : n.deadline().toString());
            return List.of(decision(
                    PolicyName.NOTICE_CHECKPOINT_DRAIN,
                    mode,
                    ActionKind.DRAIN,
                    e.subject(),
                    Map.of("deadlineSeconds", Long.toString(deadline), "allowDelete", "true"),
                    n.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " notice from "
                            + n.provider() + ", deadline " + n.deadline(),
                    key));
        }
        if (e.type() == EventType.GPU_XID && e.data() instanceof GpuData.Xid x) {
            XidRule rule = fleet.xidPolicy().rule(x.xid());
            boolean fatal = rule.fatal() || rule.action() == XidAction.DRAIN || rule.action() == XidAction.REBOOT;
            if (!fatal) {
                return List.of();
            }
            PolicyMode mode = settings.modeFor(PolicyName.FATAL_XID_DRAIN, null, poolOf(fleet, e.subject()));
            if (mode == PolicyMode.OFF
                    || fleet.node(e.subject()).map(d -> d.cordoned()).orElse(true)) {
                return List.of();
            }
            return List.of(decision(
                    PolicyName.FATAL_XID_DRAIN,
                    mode,
                    ActionKind.DRAIN,
                    e.subject(),
                    Map.of("deadlineSeconds", "600"),
                    rule.label() + " on GPU " + x.index(),
                    "xid:" + e.subject() + ":" + x.xid() + ":" + e.time()));
        }
        if (e.type() == EventType.NODE_ADMISSION_FAILED) {
            return AdmissionFailureCordon.decisions(settings, fleet, e.subject(), e.time());
        }
        return List.of();
    }

    /** Decisions for conditions that build up; a scan of the jobs, run every few seconds, never per event. */
    public List<PolicyDecision> periodic(Jobs jobs, Fleet fleet, Instant now) {
        List<PolicyDecision> out = new ArrayList<>(colocation.decisions(settings, jobs, fleet, now));
        out.addAll(BackToService.decisions(settings, backToService, fleet, now));
        out.addAll(HangRecovery.decisions(settings, jobs, fleet, now));
        out.addAll(RecoveryLadder.decisions(settings, jobs, fleet));
        Map<String, Long> freeByPool = new HashMap<>();
        JobObjectives budgets = staleOnlyWhenBurning ? objectives : null;
        for (JobSummary j : jobs.list(JobFilter.all())) {
            if (j.state() != JobState.RUNNING) {
                continue;
            }
            String job = j.name();
            PolicyMode stale = settings.modeFor(PolicyName.STALE_CHECKPOINT, j.namespace(), j.pool());
            if (stale != PolicyMode.OFF && j.freshnessBreached() && (budgets == null || budgets.burning(job))) {
                String generation = jobs.freshness(job)
                        .map(f -> String.valueOf(f.checkpointId()))
                        .orElse("none");
                out.add(decision(
                        PolicyName.STALE_CHECKPOINT,
                        stale,
                        ActionKind.CHECKPOINT_NOW,
                        job,
                        j.nodeLocalCheckpoint() ? Map.of("storage", "durable") : Map.of(),
                        budgets == null
                                ? "newest checkpoint older than the freshness objective"
                                : "newest checkpoint older than the freshness objective, and the goodput budget of"
                                        + " the job's objective is burning",
                        "stale:" + job + ":" + generation));
            }
            PolicyMode loop = settings.modeFor(PolicyName.RESTART_LOOP_SUSPEND, j.namespace(), j.pool());
            if (loop != PolicyMode.OFF) {
                RecoveryRules rules = recoveryRules;
                Budgets b = jobs.budgets(job, rules.failureBudget(), rules.plannedBudget())
                        .orElse(null);
                // Failures and interruptions with notice each against their own budget: reclaims never spend the
                // failures' (a job on spot capacity must not run out of restarts without ever failing).
                String spent = b == null
                        ? null
                        : b.failuresSpent()
                                ? b.failures() + " failures: failure budget of " + b.failureBudget() + " exhausted"
                                : b.plannedSpent()
                                        ? b.planned() + " interruptions with notice or by plan: their budget of "
                                                + b.plannedBudget() + " exhausted"
                                        : null;
                if (spent != null) {
                    out.add(decision(
                            PolicyName.RESTART_LOOP_SUSPEND,
                            loop,
                            ActionKind.PREEMPT,
                            job,
                            Map.of(),
                            spent,
                            "loop:" + job + ":" + j.restarts()));
                }
            }
            PolicyMode grow = settings.modeFor(PolicyName.CAPACITY_GROW, j.namespace(), j.pool());
            // A pool that lends its GPUs to inference keeps its jobs small: growing them back is co-location's call.
            if (grow != PolicyMode.OFF
                    && !(j.pool() != null && colocation.lending(j.pool(), now).lends())) {
                JobDetail d = jobs.detail(job).orElse(null);
                ElasticPolicy el = d == null ? null : d.elastic();
                if (el != null && j.nodes() < el.maxNodes()) {
                    long free = freeByPool.computeIfAbsent(
                            String.valueOf(j.pool()), p -> CapacityGrowth.freeNodes(jobs, fleet, j.pool(), now));
                    long target = Math.min(el.maxNodes(), j.nodes() + free);
                    if (target > j.nodes()) {
                        freeByPool.put(String.valueOf(j.pool()), free - (target - j.nodes()));
                        out.add(decision(
                                PolicyName.CAPACITY_GROW,
                                grow,
                                ActionKind.RESCALE,
                                job,
                                CapacityGrowth.params(jobs, fleet, job, target),
                                free + " free node(s) in pool " + j.pool(),
                                "grow:" + job + ":" + j.nodes() + "->" + target + ":" + j.stateSince()));
                    }
                }
            }
        }
        return hygiene.review(out, jobs, now);
    }

    private static String poolOf(Fleet fleet, String node) {
        NodeInfo info = fleet.find(node);
        return info == null ? null : info.pool();
    }

    private static PolicyDecision decision(
            PolicyName p,
            PolicyMode mode,
            ActionKind kind,
            String target,
            Map<String, String> params,
            String reason,
            String key) {
        return new PolicyDecision(p, mode, new ActionRequest(kind, target, params, reason), key);
    }
}
