package io.lifeline.domain.action;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a request into a plan, or refuses it with the field at fault and why. Pure: it reads the model it is given
 * and the time it is told, and changes nothing, so a dry run and a real submission plan the same way.
 */
public final class ActionPlanner {

    /** Used when a job has never reported how long a checkpoint takes. */
    static final long DEFAULT_CHECKPOINT_SECONDS = 60;

    static final long MAX_DEADLINE_SECONDS = 86_400;
    private static final int MAX_REASON = 1_000;
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Set<JobState> ACTIVE =
            EnumSet.of(JobState.RUNNING, JobState.RECOVERING, JobState.RESCALING, JobState.PENDING);
    private static final Map<ActionKind, Map<String, String>> DEFAULTS = Map.of(
            ActionKind.CHECKPOINT_NOW, Map.of("deadlineSeconds", "300", "storage", "any"),
            ActionKind.DRAIN, Map.of("deadlineSeconds", "600", "allowDelete", "false"),
            ActionKind.PREEMPT, Map.of("deadlineSeconds", "300"),
            ActionKind.RESUME, Map.of("deadlineSeconds", "120"),
            ActionKind.RESCALE, Map.of("deadlineSeconds", "300", "workers", "", "checkpointFirst", "false"),
            ActionKind.RESTORE, Map.of("deadlineSeconds", "600", "checkpointId", "", "allowSuspect", "false"),
            ActionKind.RESTART_WORKERS, Map.of("deadlineSeconds", "900", "captureSeconds", "15"),
            ActionKind.REPLACE_PODS, Map.of("deadlineSeconds", "300", "node", ""),
            ActionKind.UNCORDON, Map.of("deadlineSeconds", "60"),
            ActionKind.CORDON, Map.of("deadlineSeconds", "60"));

    private final Jobs jobs;
    private final Fleet fleet;

    public ActionPlanner(Jobs jobs, Fleet fleet) {
        this.jobs = jobs;
        this.fleet = fleet;
    }

    /** Plans {@code request} against the model as it is at {@code now}. */
    public PlanResult plan(ActionRequest request, Instant now) {
        if (request.reason().length() > MAX_REASON) {
            return PlanResult.refused("reason", "at most " + MAX_REASON + " characters");
        }
        Map<String, String> params = new HashMap<>(DEFAULTS.get(request.kind()));
        for (Map.Entry<String, String> p : request.params().entrySet()) {
            if (!params.containsKey(p.getKey())) {
                return PlanResult.refused(
                        "params." + p.getKey(),
                        "not a parameter of " + request.kind().wire() + " (known: "
                                + String.join(", ", new java.util.TreeSet<>(params.keySet())) + ")");
            }
            params.put(p.getKey(), p.getValue() == null ? "" : p.getValue().trim());
        }
        Long deadlineSeconds = parseLong(params.get("deadlineSeconds"));
        if (deadlineSeconds == null || deadlineSeconds < 1 || deadlineSeconds > MAX_DEADLINE_SECONDS) {
            return PlanResult.refused(
                    "params.deadlineSeconds", "must be a whole number of seconds from 1 to " + MAX_DEADLINE_SECONDS);
        }
        ActionRequest normalised = new ActionRequest(request.kind(), request.target(), params, request.reason());
        Instant deadline = now.plusSeconds(deadlineSeconds);
        if (request.kind().targetKind() == ActionKind.TargetKind.NODE) {
            return planNode(normalised, deadline, now);
        }
        return planJob(normalised, deadline, now);
    }

    private PlanResult planNode(ActionRequest r, Instant deadline, Instant now) {
        if (!NAME.matcher(r.target()).matches()) {
            return PlanResult.refused("target", "not a valid node name: lower-case letters, digits, '-' and '.'");
        }
        Optional<NodeDetail> node = fleet.node(r.target());
        if (node.isEmpty()) {
            return PlanResult.refused("target", "no node named " + r.target() + " is known");
        }
        if (node.get().state() == NodeLifecycle.TERMINATED) {
            return PlanResult.refused("target", "node " + r.target() + " is terminated");
        }
        if (r.kind() == ActionKind.UNCORDON || r.kind() == ActionKind.CORDON) {
            Impact none = new Impact(0, null, 0, List.of(), List.of(r.target()), true, List.of());
            return PlanResult.accepted(new Plan(r, deadline, none, List.of(), 0));
        }
        String allowDelete = r.params().get("allowDelete");
        if (!"true".equals(allowDelete) && !"false".equals(allowDelete)) {
            return PlanResult.refused("params.allowDelete", "must be true or false");
        }
        List<String> onNode = jobs.jobsOn(r.target());
        return PlanResult.accepted(impactOf(r, deadline, now, onNode, List.of(r.target()), true));
    }

    private PlanResult planJob(ActionRequest r, Instant deadline, Instant now) {
        String job = r.target();
        int slash = job.indexOf('/');
        if (slash < 0
                || !NAME.matcher(job.substring(0, slash)).matches()
                || !NAME.matcher(job.substring(slash + 1)).matches()) {
            return PlanResult.refused("target", "a job is named namespace/name (lower-case letters, digits, '-', '.')");
        }
        Optional<JobDetail> found = jobs.detail(job);
        if (found.isEmpty()) {
            return PlanResult.refused("target", "no job named " + job + " is known");
        }
        JobDetail d = found.get();
        JobState state = d.summary().state();
        switch (r.kind()) {
            case CHECKPOINT_NOW:
                if (!"any".equals(r.params().get("storage"))
                        && !"durable".equals(r.params().get("storage"))) {
                    return PlanResult.refused(
                            "params.storage",
                            "must be any or durable (storage that outlives the"
                                    + " node: object storage, a shared file system or replicas)");
                }
                if (state == JobState.PENDING) {
                    return PlanResult.refused(
                            "target",
                            "job " + job + " is PENDING: its trainers have not started, "
                                    + "nothing to checkpoint yet");
                }
            // fall through: otherwise the same states as preempt
            case PREEMPT:
                if (!ACTIVE.contains(state)) {
                    return PlanResult.refused(
                            "target",
                            "job " + job + " is " + state + ": nothing to "
                                    + (r.kind() == ActionKind.PREEMPT ? "preempt" : "checkpoint"));
                }
                break;
            case RESUME:
                if (state != JobState.SUSPENDED && state != JobState.PREEMPTED) {
                    return PlanResult.refused("target", "job " + job + " is " + state + ", not suspended or preempted");
                }
                break;
            case RESCALE:
                PlanResult refused = checkRescale(r, d);
                if (refused != null) {
                    return refused;
                }
                break;
            case RESTART_WORKERS:
                Long capture = parseLong(r.params().get("captureSeconds"));
                if (capture == null || capture < 0 || capture > 600) {
                    return PlanResult.refused(
                            "params.captureSeconds",
                            "must be a whole number of seconds from 0 (no stacks) to 600: how long to wait for the"
                                    + " ranks' stacks before the restart");
                }
                if (state != JobState.RUNNING && state != JobState.RECOVERING) {
                    return PlanResult.refused(
                            "target", "job " + job + " is " + state + ": its workers are not running");
                }
                break;
            case RESTORE:
                return planRestore(r, job, deadline, now, d);
            case REPLACE_PODS:
                return planReplace(r, job, deadline, now, d);
            default:
                return PlanResult.refused("kind", r.kind().wire() + " does not act on a job");
        }
        return PlanResult.accepted(impactOf(r, deadline, now, List.of(job), nodesOf(d), false));
    }

    private PlanResult checkRescale(ActionRequest r, JobDetail d) {
        Long workers = parseLong(r.params().get("workers"));
        if (workers == null) {
            return PlanResult.refused("params.workers", "required: the number of workers (nodes) to run");
        }
        String first = r.params().get("checkpointFirst");
        if (!"true".equals(first) && !"false".equals(first)) {
            return PlanResult.refused("params.checkpointFirst", "must be true or false");
        }
        ElasticPolicy elastic = d.elastic();
        if (elastic == null) {
            return PlanResult.refused("target", "job " + r.target() + " is not elastic: it cannot be rescaled");
        }
        if (workers < elastic.minNodes() || workers > elastic.maxNodes()) {
            return PlanResult.refused(
                    "params.workers",
                    "must be between " + elastic.minNodes() + " and " + elastic.maxNodes()
                            + " (the job's elastic bounds), got " + workers);
        }
        int current = d.summary().nodes();
        // A job that lost a node still declares its replica: a rescale to the nodes it has left drops that replica,
        // rather than waiting for a replacement, though its group already counts only the survivors.
        boolean lost = d.membership() != null && !d.membership().lostNodes().isEmpty();
        if (workers == current && !lost) {
            return PlanResult.refused("params.workers", "the job already runs " + current + " workers");
        }
        if (workers > current) {
            long free = freeNodes(d.summary().pool());
            if (workers - current > free) {
                return PlanResult.refused(
                        "params.workers",
                        "growing by " + (workers - current) + " needs as many free" + " nodes, pool "
                                + d.summary().pool() + " has " + free);
            }
        }
        return null;
    }

    /**
     * A restore of the checkpoint named when it is complete and trusted (or {@code allowSuspect}), else of the job's
     * newest trusted one: accepted with that checkpoint named, or refused.
     */
    private PlanResult planRestore(ActionRequest r, String job, Instant deadline, Instant now, JobDetail d) {
        String allow = r.params().get("allowSuspect");
        if (!"true".equals(allow) && !"false".equals(allow)) {
            return PlanResult.refused("params.allowSuspect", "true or false, got '" + allow + "'");
        }
        RestoreChoice c = RestoreChoice.of(
                job, jobs.checkpoints(job).orElse(null), r.params().get("checkpointId"), "true".equals(allow));
        if (c.refusal() != null) {
            return PlanResult.refused(c.field(), c.refusal());
        }
        Map<String, String> params = new HashMap<>(r.params());
        params.put("checkpointId", c.checkpointId());
        ActionRequest chosen = new ActionRequest(r.kind(), r.target(), params, r.reason());
        return PlanResult.accepted(impactOf(chosen, deadline, now, List.of(job), nodesOf(d), false));
    }

    /**
     * A replacement of the job's pods on one node: refused when the node is not named, or the job has no worker there
     * (its group holds none, and the job is not listed on it). The impact is that node's ranks.
     */
    private PlanResult planReplace(ActionRequest r, String job, Instant deadline, Instant now, JobDetail d) {
        String node = r.params().get("node");
        if (node == null || node.isEmpty()) {
            return PlanResult.refused("params.node", "required: the node whose pods of the job are replaced");
        }
        if (!NAME.matcher(node).matches()) {
            return PlanResult.refused("params.node", "not a valid node name: lower-case letters, digits, '-' and '.'");
        }
        if (!nodesOf(d).contains(node) && !jobs.jobsOn(node).contains(job)) {
            return PlanResult.refused("params.node", "job " + job + " has no pods on node " + node);
        }
        JobState state = d.summary().state();
        if (state.isTerminal() || state == JobState.SUSPENDED || state == JobState.PREEMPTED) {
            return PlanResult.refused("target", "job " + job + " is " + state + ": its pods are not to be replaced");
        }
        return PlanResult.accepted(impactOf(r, deadline, now, List.of(job), List.of(node), true));
    }

    /** Ready, uncordoned nodes of a pool that run no job. A per-request scan, never on the event path. */
    long freeNodes(String pool) {
        long free = 0;
        for (NodeSummary n : fleet.nodes(new NodeQuery(pool, null, NodeLifecycle.READY, null))) {
            if (!n.cordoned()
                    && !n.noticeActive()
                    && !n.noticeExpired()
                    && jobs.jobsOn(n.name()).isEmpty()) {
                free++;
            }
        }
        return free;
    }

    private Plan impactOf(
            ActionRequest r,
            Instant deadline,
            Instant now,
            List<String> affected,
            List<String> nodes,
            boolean perNode) {
        double atRisk = 0;
        Long oldest = null;
        boolean anyWithout = false;
        int ranks = 0;
        long slowest = 0;
        List<String> warnings = new ArrayList<>();
        List<String> noSafe = new ArrayList<>();
        // A node action counts what survives that node; a job action what survives the loss of any one of its nodes.
        String node = perNode ? nodes.get(0) : null;
        for (String job : affected) {
            JobDetail d = jobs.detail(job).orElse(null);
            if (d == null) {
                continue;
            }
            FreshnessView f = node == null
                    ? d.freshness()
                    : jobs.freshnessSurviving(job, node).orElse(d.freshness());
            if (f != null) {
                atRisk += f.workAtRiskGpuHours();
            }
            if (f != null && f.newestNotSurviving()) {
                noSafe.add(job);
                warnings.add(job + ": no safe checkpoint: its newest, " + f.newestCheckpointId() + ", is "
                        + f.newestDurability() + (node == null ? "" : " on " + node) + " and would be lost with "
                        + (node == null ? "its node" : "it")
                        + (node == null ? "" : "; it saves to durable storage first")
                        + (f.checkpointId() == null ? "" : " (newest that survives: " + f.checkpointId() + ")"));
            }
            if (f != null && f.checkpointId() != null && f.ageMillis() != null) {
                long age = f.ageMillis() / 1000;
                oldest = oldest == null ? age : Math.max(oldest, age);
            } else {
                anyWithout = true;
                if (f == null || !f.newestNotSurviving()) {
                    noSafe.add(job);
                    warnings.add(job + " has no complete checkpoint: all its work is at risk");
                }
            }
            int perNodeRanks = d.elastic() != null ? d.elastic().procsPerNode() : Math.max(1, d.gpusPerNode());
            ranks += perNode ? perNodeRanks : d.summary().worldSize();
            slowest = Math.max(slowest, checkpointSeconds(job, node));
            if (perNode
                    && r.kind().targetKind() == ActionKind.TargetKind.NODE
                    && (d.elastic() == null
                            || d.summary().nodes() - 1 < d.elastic().minNodes())) {
                warnings.add(job + " cannot shrink below its minimum: it will wait for capacity");
            }
        }
        long available = Duration.between(now, deadline).getSeconds();
        boolean allows = affected.isEmpty() || slowest <= available;
        if (!allows) {
            warnings.add("the deadline leaves " + available + " s, a checkpoint that survives "
                    + (node == null ? "a node" : node) + " takes about " + slowest + " s");
        }
        String counted = node == null
                ? "checkpoints that survive the loss of any one node"
                : "checkpoints that survive the loss of " + node;
        Impact impact = new Impact(
                round(atRisk), anyWithout ? null : oldest, ranks, affected, nodes, allows, warnings, noSafe, counted);
        return new Plan(r, deadline, impact, affected, slowest);
    }

    /** How long the job's newest complete checkpoint took, or the default if it never said. */
    public long checkpointSeconds(String job) {
        return checkpointSeconds(job, null);
    }

    /**
     * How long the job's newest complete checkpoint that survives the loss of {@code node} (null: of any one node)
     * took: a save to the local disk is no measure of one to durable storage. The default if none said.
     */
    public long checkpointSeconds(String job, String node) {
        CheckpointHistory h = jobs.checkpoints(job).orElse(null);
        if (h != null) {
            for (int i = h.checkpoints().size() - 1; i >= 0; i--) {
                CheckpointView c = h.checkpoints().get(i);
                boolean survives = node == null ? c.survivesAnyNode() : c.survivesLossOf(node);
                if (c.durationMillis() != null
                        && survives
                        && (c.status() == CheckpointStatus.COMPLETED || c.status() == CheckpointStatus.VERIFIED)) {
                    return Math.max(1, (c.durationMillis() + 999) / 1000);
                }
            }
        }
        return DEFAULT_CHECKPOINT_SECONDS;
    }

    private static List<String> nodesOf(JobDetail d) {
        List<String> out = new ArrayList<>();
        if (d.membership() != null && d.membership().current() != null) {
            d.membership().current().participants().forEach(p -> out.add(p.node()));
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static Long parseLong(String s) {
        if (s == null || s.isEmpty() || s.length() > 12) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
