package io.lifeline.action;

import io.lifeline.action.StepRunner.StepOutcome;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterActions.PodRef;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.StepResult;
import io.lifeline.config.ActionsConfig;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.platform.LogContext;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The steps of each kind of action (see DESIGN "Actions"). Every step has a stable name so that a resumed run
 * skips what is done; every cluster call and command is idempotent.
 */
final class ActionProcedures {

    /** How an earlier version wrote the baseline into a step's detail; still read for actions it left running. */
    private static final String BASELINE = "baselineStep=";
    /** How an earlier version wrote what a restore's check found into its detail; still read for restores it left running. */
    private static final String RESTORE_COUNT = "restoreCount=";

    private static final String URI = " uri=";

    private static final String NO_CLUSTER =
            "neither the Kubernetes connector nor the demo fleet is on (lifeline.connectors.kubernetes.enabled)";

    private final ClusterActions cluster;
    private final TrainerCommandSink commands;
    private final ModelRuntime runtime;
    private final Clock clock;
    private final ActionsConfig config;
    private final CommandDelivery delivery;

    ActionProcedures(
            ClusterActions cluster,
            TrainerCommandSink commands,
            ModelRuntime runtime,
            Clock clock,
            ActionsConfig config) {
        this.cluster = cluster;
        this.commands = commands;
        this.runtime = runtime;
        this.clock = clock;
        this.config = config;
        this.delivery = new CommandDelivery(commands, clock, config);
    }

    /**
     * Runs the action's steps and returns the sentence that ends it. A step that waits throws
     * {@link StepRunner.Waiting}, and the executor calls this again later with the same runner: everything here outside
     * a step runs again then, so it must be idempotent and cheap (a model read at most, or kept with the runner).
     */
    String run(ActionView a, StepRunner s) throws Exception {
        return runSteps(a, s);
    }

    private String runSteps(ActionView a, StepRunner s) throws Exception {
        switch (a.kind()) {
            case CHECKPOINT_NOW:
                return checkpointNow(a, s);
            case DRAIN:
                return drain(a, s);
            case PREEMPT:
                return preempt(a, s);
            case RESUME:
                s.step("resume", () -> cluster(cluster.suspend(a.target(), false), a.deadline()));
                return a.target() + " resumed";
            case RESCALE:
                return rescale(a, s);
            case RESTORE:
                return restore(a, s);
            case RESTART_WORKERS:
                return restartWorkers(a, s);
            case REPLACE_PODS:
                return replacePods(a, s);
            case UNCORDON:
                s.step("uncordon", () -> cluster(cluster.uncordon(a.target()), a.deadline()));
                return a.target() + " uncordoned";
            case CORDON:
                s.step("cordon", () -> cluster(cluster.cordon(a.target()), a.deadline()));
                return a.target() + " cordoned";
            default:
                throw new StepRunner.StepFailed("no procedure for " + a.kind());
        }
    }

    private String checkpointNow(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        String request = "request checkpoint " + job;
        StepOutcome req = s.step(request, () -> requestCheckpoint(a, s, request, job, a.deadline()));
        StepOutcome wait = s.step("await checkpoint " + job, () -> awaitCheckpoint(a, job, baseline(req)));
        return wait.detail();
    }

    private String drain(ActionView a, StepRunner s) throws Exception {
        String node = a.target();
        List<String> jobs = a.impact() == null ? List.of() : a.impact().jobs();
        boolean allowDelete = Boolean.parseBoolean(a.params().getOrDefault("allowDelete", "false"));
        // Commands first: on a two-minute notice every second of checkpoint time counts, and cordoning can wait, but
        // not for a channel that is down: every job's command goes out side by side, cordon right after the first
        // attempts, and the retries of any failed send go on before the checkpoints are awaited.
        List<String> names =
                jobs.stream().map(job -> "request checkpoint " + job).toList();
        StepRunner.Together sent = s.together(
                names,
                i -> aboutJob(jobs.get(i), () -> requestCheckpoint(a, s, names.get(i), jobs.get(i), a.deadline())));
        s.step("cordon", () -> cluster(cluster.cordon(node), a.deadline()));
        List<StepOutcome> requests = sent.await();
        List<String> unsafe = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            String job = jobs.get(i);
            StepOutcome req = requests.get(i);
            if (req.state() == StepState.DONE) {
                StepOutcome saved = s.tolerant(
                        "await checkpoint " + job, aboutJob(job, () -> awaitCheckpoint(a, job, baseline(req))));
                if (saved.state() == StepState.FAILED) {
                    unsafe.add(job + " (" + saved.detail() + ")");
                }
            }
        }
        StepOutcome listed = s.step("list pods", () -> StepOutcome.done(describe(cluster.trainingPodsOn(node))));
        // Listed again after a restart (pods evicted before it are gone, and their steps are done anyway), but not
        // when the procedure runs again after an eviction refused for now: those pods are still to be counted.
        List<PodRef> toEvict = s.keep("pods on " + node, () -> cluster.trainingPodsOn(node));
        int evicted = 0;
        for (PodRef pod : toEvict) {
            s.step("evict " + pod.namespace() + "/" + pod.name(), () -> evict(pod, a.deadline(), allowDelete, s));
            evicted++;
        }
        List<String> shrunk = new ArrayList<>();
        for (String job : jobs) {
            StepOutcome out = s.tolerant("shrink " + job, aboutJob(job, () -> shrink(job, node, a.deadline())));
            if (out.state() == StepState.DONE) {
                shrunk.add(job);
            }
        }
        return node + " drained: " + evicted + " pod(s) evicted (" + listed.detail() + "), "
                + (shrunk.isEmpty() ? "no job shrunk" : "shrunk " + String.join(", ", shrunk))
                + (unsafe.isEmpty()
                        ? ""
                        : "; no checkpoint that survives " + node + " for " + String.join(", ", unsafe));
    }

    private String preempt(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        String request = "request checkpoint " + job;
        StepOutcome req = s.tolerant(request, () -> requestCheckpoint(a, s, request, job, a.deadline()));
        if (req.state() == StepState.DONE) {
            s.tolerant("await checkpoint " + job, () -> awaitCheckpoint(a, job, baseline(req)));
        }
        double atRisk = read(m ->
                m.jobs().freshness(job).map(FreshnessView::workAtRiskGpuHours).orElse(0.0));
        s.step("suspend", () -> cluster(cluster.suspend(job, true), a.deadline()));
        return job + " preempted by " + a.requestedBy() + "; work lost at suspension: "
                + String.format(java.util.Locale.ROOT, "%.2f", atRisk) + " GPU-hours";
    }

    private String rescale(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        int workers = Integer.parseInt(a.params().get("workers"));
        boolean checkpointFirst = Boolean.parseBoolean(a.params().getOrDefault("checkpointFirst", "false"));
        if (checkpointFirst) {
            // prepare_exit: the trainers save and hold still until the new membership restarts them, so the
            // restart throws nothing away. A save that fails or is refused fails the rescale: no change without it.
            String request = "request checkpoint " + job;
            StepOutcome req = s.step(request, () -> requestCheckpoint(a, s, request, job, a.deadline()));
            s.step("await checkpoint " + job, () -> awaitCheckpoint(a, job, baseline(req)));
        }
        String notify = "notify trainers";
        // The notice does not hold the patch back while a channel is down; it is retried alongside.
        StepRunner.Together notice = s.together(List.of(notify), i -> () -> {
            String id = a.id() + ":rescale";
            CommandDelivery.Delivery d = delivery.deliver(
                    s,
                    notify,
                    () -> {
                        // Read once for the step's runner: the procedure runs again at every re-check, this read does
                        // not.
                        int procs = read(m -> m.jobs()
                                .detail(job)
                                .map(j -> j.elastic() == null ? 1 : j.elastic().procsPerNode())
                                .orElse(1));
                        return new TrainerCommand(
                                id,
                                job,
                                CommandType.RESCALE_NOTICE,
                                Map.of(
                                        "worldSize",
                                        Integer.toString(workers * procs),
                                        "workers",
                                        Integer.toString(workers)),
                                clock.instant(),
                                a.deadline());
                    },
                    a.deadline(),
                    () -> acknowledged(job, id));
            return d.ok()
                    ? StepOutcome.done("rescale notice (" + workers + " workers) " + d.describe(), d.sent())
                    : StepOutcome.failed("rescale notice " + d.failure());
        });
        StepOutcome scaled = s.step("scale workers", () -> scaleWorkers(job, workers, checkpointFirst, a.deadline()));
        notice.await();
        StepOutcome w = s.step(
                "await rendezvous",
                () -> awaitUntil(
                        a.deadline(),
                        m -> m.jobs()
                                .detail(job)
                                .map(d -> d.summary().nodes() == workers)
                                .orElse(false),
                        job + " runs on " + workers + " nodes",
                        "no rendezvous at " + workers + " nodes by the deadline"));
        if (scaled.result() instanceof StepResult.Rescaled r) {
            return w.detail() + "; rework lost: " + String.format(java.util.Locale.ROOT, "%.2f", r.reworkGpuHours())
                    + " GPU-hours";
        }
        return w.detail();
    }

    /**
     * Scales and records what the change cost: the size before, and the work since the newest checkpoint that the
     * restart throws away (none when the trainers trained no step since it, as after a checkpoint first).
     */
    private StepOutcome scaleWorkers(String job, int workers, boolean checkpointFirst, Instant deadline)
            throws Exception {
        Optional<JobAndNewest> before = read(m -> m.jobs()
                .detail(job)
                .map(d ->
                        new JobAndNewest(d, newestGood(m.jobs().checkpoints(job).orElse(null), c -> true))));
        StepOutcome out = cluster(cluster.scaleWorkers(job, workers), deadline);
        if (before.isEmpty() || out.state() != StepState.DONE) {
            return out;
        }
        JobDetail d = before.get().detail();
        CheckpointView newest = before.get().newest();
        FreshnessView f = d.freshness();
        // The restart restores the newest checkpoint that completed, as "await checkpoint" counts them: one still
        // being verified included (freshness counts it only once verified, a few seconds later).
        Long last = d.summary().lastStep();
        boolean nothingSince = newest != null && last != null && last <= newest.step()
                || f != null && f.stepsSince() != null && f.stepsSince() == 0;
        double rework = nothingSince || f == null ? 0 : f.workAtRiskGpuHours();
        return StepOutcome.done(
                out.detail(),
                new StepResult.Rescaled(
                        d.summary().pool(),
                        d.summary().nodes(),
                        workers,
                        Math.max(1, d.gpusPerNode()),
                        Math.round(rework * 1000) / 1000.0,
                        checkpointFirst,
                        newest != null ? newest.id() : f == null ? null : f.checkpointId()));
    }

    /** A job and its newest good checkpoint, read together. */
    private record JobAndNewest(JobDetail detail, CheckpointView newest) {}

    private String restore(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        String id = a.params().get("checkpointId");
        StepOutcome check = s.step("check checkpoint", () -> {
            Optional<CheckpointView> cp = read(m -> m.jobs()
                    .checkpoints(job)
                    .flatMap(h -> h.checkpoints().stream()
                            .filter(c -> c.id().equals(id))
                            .findFirst()));
            if (cp.isEmpty()) {
                return StepOutcome.failed("checkpoint " + id + " is not known");
            }
            if (cp.get().status() != CheckpointStatus.COMPLETED && cp.get().status() != CheckpointStatus.VERIFIED) {
                return StepOutcome.failed("checkpoint " + id + " is " + cp.get().status());
            }
            String uri = cp.get().uri() == null ? "" : cp.get().uri();
            return StepOutcome.done(
                    "checkpoint " + id + " is " + cp.get().status().name().toLowerCase(java.util.Locale.ROOT)
                            + (uri.isEmpty() ? "" : " at " + uri) + "; restored "
                            + cp.get().restoreCount() + " time(s) so far",
                    new StepResult.CheckpointChecked(id, cp.get().restoreCount(), uri));
        });
        StepResult.CheckpointChecked checked = checked(check, id);
        int before = checked.restoreCount();
        String uri = checked.uri();
        s.step("command restore", () -> {
            String commandId = a.id() + ":restore";
            CommandDelivery.Delivery d = delivery.deliver(
                    s,
                    "command restore",
                    () -> new TrainerCommand(
                            commandId,
                            job,
                            CommandType.RESTORE_FROM,
                            Map.of("checkpointId", id, "uri", uri),
                            clock.instant(),
                            a.deadline()),
                    a.deadline(),
                    () -> acknowledged(job, commandId));
            return d.ok()
                    ? StepOutcome.done("restore_from " + id + " " + d.describe(), d.sent())
                    : StepOutcome.failed("restore_from " + id + " " + d.failure());
        });
        s.step(
                "annotate job",
                () -> cluster.available()
                        ? cluster(cluster.annotateRestore(job, id, uri), a.deadline())
                        : StepOutcome.skipped("no cluster: the trainers restore on their own"));
        StepOutcome w = s.step(
                "await restore",
                () -> awaitUntil(
                        a.deadline(),
                        m -> m.jobs()
                                .checkpoints(job)
                                .flatMap(h -> h.checkpoints().stream()
                                        .filter(c -> c.id().equals(id))
                                        .findFirst())
                                .map(c -> c.restoreCount() > before)
                                .orElse(false),
                        job + " restored from " + id,
                        "no trainer.restored from " + id + " by the deadline"));
        return w.detail();
    }

    /**
     * A hung job's remedy: its stacks first (what an operator needs to find the cause, and what a restart destroys),
     * then the workers' exit, then the proof that it worked: progress after the command.
     */
    private String restartWorkers(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        long captureSeconds = Long.parseLong(a.params().getOrDefault("captureSeconds", "15"));
        String requestId = a.id() + ":stacks";
        if (captureSeconds > 0) {
            s.step("command capture_stacks", () -> {
                CommandDelivery.Delivery d = delivery.deliver(
                        s,
                        "command capture_stacks",
                        () -> new TrainerCommand(
                                requestId,
                                job,
                                CommandType.CAPTURE_STACKS,
                                Map.of("requestId", requestId),
                                clock.instant(),
                                a.deadline()),
                        a.deadline(),
                        () -> acknowledged(job, requestId));
                return d.ok()
                        ? StepOutcome.done("capture_stacks " + d.describe(), d.sent())
                        : StepOutcome.skipped("capture_stacks " + d.failure() + ": restarting without stacks");
            });
            Instant until = s.keep("stacks wait until", () -> clock.instant().plusSeconds(captureSeconds));
            s.step("await stacks", () -> {
                Optional<io.lifeline.domain.job.hang.StackCaptureView> v =
                        read(m -> m.jobs().stacks(job).filter(c -> requestId.equals(c.requestId())));
                int got = v.map(io.lifeline.domain.job.hang.StackCaptureView::ranksReported)
                        .orElse(0);
                int expected = v.map(io.lifeline.domain.job.hang.StackCaptureView::ranksExpected)
                        .orElse(0);
                if (got > 0 && got >= expected) {
                    return StepOutcome.done("stacks of all " + got + " rank(s)");
                }
                Instant now = clock.instant();
                if (!now.isBefore(until) || !now.isBefore(a.deadline())) {
                    return StepOutcome.done("stacks of " + got + " of " + expected + " rank(s) after " + captureSeconds
                            + " s; restarting anyway");
                }
                throw new StepRunner.Waiting(until(now, until, config.pollInterval()));
            });
        }
        String commandId = a.id() + ":restart";
        Instant sentAt = s.keep("restart sent at", clock::instant);
        s.step("command restart_workers", () -> {
            CommandDelivery.Delivery d = delivery.deliver(
                    s,
                    "command restart_workers",
                    () -> new TrainerCommand(
                            commandId,
                            job,
                            CommandType.RESTART_WORKERS,
                            Map.of("reason", a.reason() == null ? "" : a.reason(), "exitCode", "75"),
                            clock.instant(),
                            a.deadline()),
                    a.deadline(),
                    () -> acknowledged(job, commandId));
            return d.ok()
                    ? StepOutcome.done("restart_workers " + d.describe(), d.sent())
                    : StepOutcome.failed("restart_workers " + d.failure());
        });
        StepOutcome w = s.step(
                "await progress",
                () -> awaitUntil(
                        a.deadline(),
                        m -> m.jobs()
                                .detail(job)
                                .map(d -> d.summary().state() == io.lifeline.domain.job.JobState.RUNNING
                                        && d.summary().lastProgressAt() != null
                                        && d.summary().lastProgressAt().isAfter(sentAt))
                                .orElse(false),
                        job + " trains again after the restart",
                        "no progress of " + job + " after the restart by the deadline"));
        return w.detail();
    }

    /**
     * Deletes the job's pods on one node so that its controller recreates them (the job itself is not restarted). A
     * pod already gone counts as done: a second run, or one after a restart, deletes nothing more.
     */
    private String replacePods(ActionView a, StepRunner s) throws Exception {
        String job = a.target();
        String node = a.params().get("node");
        s.step(
                "list pods",
                () -> cluster.available()
                        ? StepOutcome.done(describe(cluster.jobPodsOn(job, node)) + " of " + job + " on " + node)
                        : StepOutcome.failed("no cluster to replace pods on: " + NO_CLUSTER));
        List<PodRef> pods = s.keep("pods of " + job + " on " + node, () -> cluster.jobPodsOn(job, node));
        int deleted = 0;
        int gone = 0;
        for (PodRef pod : pods) {
            StepOutcome out =
                    s.step("delete " + pod.namespace() + "/" + pod.name(), () -> deletePod(pod, a.deadline()));
            if (out.detail().startsWith("already gone")) {
                gone++;
            } else {
                deleted++;
            }
        }
        return job + ": " + deleted + " pod(s) on " + node + " deleted for its controller to recreate"
                + (gone == 0 ? "" : ", " + gone + " already gone");
    }

    private StepOutcome deletePod(PodRef pod, Instant deadline) throws Exception {
        ClusterOutcome out = cluster.deletePod(pod);
        if (out.result() == ClusterOutcome.Result.NOT_FOUND) {
            return StepOutcome.done("already gone");
        }
        return cluster(out, deadline);
    }

    // ------------------------------------------------------------------------------------------------- steps

    /**
     * Sends checkpoint_now, or prepare_exit when the job's ranks are about to be stopped (drain, preempt): trainers
     * then save and hold still until they restart, so no step is taken that the stop would throw away. A drain sends
     * it to a training job even when nothing is new since its newest checkpoint: the ranks go on stepping until the
     * node goes, and only the hold keeps those steps from being lost. Only a
     * checkpoint that survives what the action does counts ({@link #counted}); when the job's newest one would not
     * survive a drain (it is on the local disk of the node being drained), the command asks for durable storage
     * ({@code storage=durable}); a checkpoint-now does only when it is asked to ({@code storage=durable}).
     */
    private StepOutcome requestCheckpoint(ActionView a, StepRunner s, String step, String job, Instant deadline)
            throws Exception {
        Predicate<CheckpointView> counts = counted(a);
        // One read for both: every round trip through the model's queue delays the command under heavy ingest. Kept
        // across the step's re-checks: a checkpoint its command caused must not move its own baseline.
        Optional<JobAndBaseline> d = s.keep(
                "baseline of " + job,
                () -> read(m -> m.jobs()
                        .detail(job)
                        .map(j -> new JobAndBaseline(
                                surviving(a, m, job).orElse(j.freshness()),
                                j.summary().state(),
                                newestGoodStep(m.jobs().checkpoints(job).orElse(null), counts)))));
        if (d.isEmpty()) {
            return StepOutcome.skipped("job " + job + " is no longer known");
        }
        FreshnessView f = d.get().freshness();
        JobState state = d.get().state();
        if (a.kind() == ActionKind.DRAIN && state != JobState.RUNNING && state != JobState.RESCALING) {
            // Its trainers are starting or restarting: they would refuse, and there is nothing new to save yet.
            return StepOutcome.skipped("job " + job + " is " + state + ": not training, nothing new to save");
        }
        long baseline = d.get().baseline();
        CommandType type =
                a.kind() == ActionKind.CHECKPOINT_NOW ? CommandType.CHECKPOINT_NOW : CommandType.PREPARE_EXIT;
        Map<String, String> params = new java.util.HashMap<>(
                Map.of("deadline", deadline.toString(), "reason", a.kind().wire() + " " + a.target()));
        if (a.kind() == ActionKind.DRAIN) {
            params.put("node", a.target()); // the node going away: its ranks exit after the save, the others hold
        }
        // A drain asks on its own for a save that outlives its node; anything else only when asked to.
        boolean durable = "durable".equals(a.params().get("storage"))
                || (a.kind() == ActionKind.DRAIN && f != null && f.newestNotSurviving());
        if (durable) {
            params.put("storage", "durable");
        }
        String id = checkpointCommandId(a, job);
        CommandDelivery.Delivery sent = delivery.deliver(
                s,
                step,
                () -> new TrainerCommand(id, job, type, params, clock.instant(), deadline),
                deadline,
                () -> acknowledged(job, id));
        if (!sent.ok()) {
            return StepOutcome.failed(type.wire() + " " + sent.failure());
        }
        String surviving = a.kind() == ActionKind.DRAIN ? " surviving " + a.target() : "";
        return StepOutcome.done(
                type.wire()
                        + (durable ? " to durable storage " : " ")
                        + sent.describe()
                        + (baseline < 0
                                ? "; no good checkpoint" + surviving + " yet"
                                : "; newest good checkpoint" + surviving + " at step " + baseline),
                new StepResult.CheckpointRequested(baseline, type.wire(), id, sent.sent()));
    }

    /**
     * Which checkpoints an action counts: a drain those that survive the loss of its node, a checkpoint-now asking for
     * durable storage those that survive the loss of any node, anything else every good one.
     */
    private static Predicate<CheckpointView> counted(ActionView a) {
        if (a.kind() == ActionKind.DRAIN) {
            String node = a.target();
            return c -> c.survivesLossOf(node);
        }
        if ("durable".equals(a.params().get("storage"))) {
            return CheckpointView::survivesAnyNode;
        }
        return c -> true;
    }

    /** How the checkpoints an action counts are described in its step details. */
    private static String survives(ActionView a) {
        return a.kind() == ActionKind.DRAIN
                ? " that survives " + a.target()
                : "durable".equals(a.params().get("storage")) ? " on durable storage" : "";
    }

    /** The job's freshness as the action counts it: for a drain, what survives its node. */
    private static Optional<FreshnessView> surviving(ActionView a, LiveModel m, String job) {
        return a.kind() == ActionKind.DRAIN
                ? m.jobs().freshnessSurviving(job, a.target())
                : m.jobs().freshness(job);
    }

    /** Whether the trainers answered the command: in the model, or recorded by a channel on any replica. */
    private boolean acknowledged(String job, String commandId) throws Exception {
        return read(m -> m.jobs().commandAck(job, commandId).isPresent())
                || commands.acknowledgement(job, commandId).isPresent();
    }

    /** A job's checkpoint freshness, its state and the step of its newest counted checkpoint, read together. */
    private record JobAndBaseline(FreshnessView freshness, JobState state, long baseline) {}

    private static String checkpointCommandId(ActionView a, String job) {
        return a.id() + ":checkpoint:" + job;
    }

    /** Waits for a good checkpoint newer than the baseline; stops at once when the trainers refuse the command. */
    private StepOutcome awaitCheckpoint(ActionView a, String job, long baseline) throws Exception {
        String commandId = checkpointCommandId(a, job);
        Predicate<CheckpointView> counts = counted(a);
        AtomicReference<CommandAckView> refusal = new AtomicReference<>();
        StepOutcome out;
        try {
            out = awaitUntil(
                    a.deadline(),
                    m -> {
                        if (answers(m.jobs().checkpoints(job).orElse(null), counts, baseline, a.createdAt())) {
                            return true;
                        }
                        m.jobs()
                                .commandAck(job, commandId)
                                .filter(CommandAckView::refused)
                                .ifPresent(refusal::set);
                        return refusal.get() != null;
                    },
                    "checkpoint of " + job + " completed" + survives(a),
                    "no checkpoint of " + job + survives(a) + " completed by the deadline");
        } catch (StepRunner.Waiting w) {
            // A refusal through an agent that polls another replica is on the command's queue row before it is in
            // this replica's model.
            commands.acknowledgement(job, commandId)
                    .filter(CommandAckView::refused)
                    .ifPresent(refusal::set);
            if (refusal.get() == null) {
                throw w;
            }
            out = StepOutcome.done("refused");
        }
        CommandAckView refused = refusal.get();
        if (refused != null && out.state() == StepState.DONE) {
            return StepOutcome.failed("the trainers of " + job + " "
                    + refused.status().wireName() + " the command"
                    + (refused.message() == null || refused.message().isBlank() ? "" : ": " + refused.message()));
        }
        return out;
    }

    /**
     * One eviction attempt. A refusal (a PodDisruptionBudget) before the deadline leaves the step waiting for the next
     * attempt; the refusals so far are the step's re-checks.
     */
    private StepOutcome evict(PodRef pod, Instant deadline, boolean allowDelete, StepRunner s) throws Exception {
        int refusals = s.rechecks();
        Instant now = clock.instant();
        boolean late = !now.isBefore(deadline);
        ClusterOutcome out = cluster.evict(pod, late && allowDelete);
        switch (out.result()) {
            case EVICTED:
            case DELETED:
            case NOOP:
                return StepOutcome.done(out.detail() + (refusals > 0 ? " after " + refusals + " refusal(s)" : ""));
            case NOT_FOUND:
                return StepOutcome.done("already gone");
            case RETRY_LATER:
                if (late) {
                    return StepOutcome.failed("eviction still refused at the deadline (" + out.detail() + ")"
                            + (allowDelete ? "" : "; deletion not allowed by this action"));
                }
                throw new StepRunner.Waiting(until(now, deadline, config.evictRetryInterval()));
            default:
                return StepOutcome.failed(out.detail());
        }
    }

    private StepOutcome shrink(String job, String node, Instant deadline) throws Exception {
        Optional<JobDetail> d = read(m -> m.jobs().detail(job));
        if (d.isEmpty() || d.get().elastic() == null) {
            return StepOutcome.skipped("not elastic: it waits for capacity");
        }
        int min = d.get().elastic().minNodes();
        List<String> placed =
                d.get().membership() == null || d.get().membership().current() == null
                        ? List.of()
                        : d.get().membership().current().participants().stream()
                                .map(p -> p.node())
                                .toList();
        // Nodes of the job that are leaving too (under a notice that has not expired) are left out now:
        // staggered notices for several of its nodes make one shrink, not one restart each (the later drains find the
        // job already at its size).
        Set<String> leaving = read(m -> {
            Set<String> out = new java.util.HashSet<>();
            for (String n : placed) {
                m.fleet()
                        .node(n)
                        .filter(nd -> nd.cordoned() || nd.noticeActive())
                        .ifPresent(nd -> out.add(n));
            }
            return out;
        });
        int remaining = (int) placed.stream()
                .filter(n -> !n.equals(node) && !leaving.contains(n))
                .count();
        if (placed.isEmpty()) {
            remaining = Math.max(0, d.get().summary().nodes() - 1);
        }
        if (remaining < min) {
            return StepOutcome.skipped("below its minimum of " + min + " nodes: it waits for capacity");
        }
        return cluster(cluster.scaleWorkers(job, remaining), deadline);
    }

    /**
     * Done when the model meets the condition, failed when the deadline has passed first; until then the step waits
     * (no thread held) and is checked again after the poll interval.
     */
    private StepOutcome awaitUntil(Instant deadline, Predicate<LiveModel> done, String success, String failure)
            throws Exception {
        if (read(done::test)) {
            return StepOutcome.done(success);
        }
        Instant now = clock.instant();
        if (!now.isBefore(deadline)) {
            return StepOutcome.failed(failure);
        }
        throw new StepRunner.Waiting(until(now, deadline, config.pollInterval()));
    }

    /** The pause before a re-check: the interval, or less when the deadline comes sooner (so it is met on time). */
    private static Duration until(Instant now, Instant deadline, Duration interval) {
        return CommandDelivery.until(now, deadline, interval);
    }

    // ------------------------------------------------------------------------------------------------ support

    /**
     * The body of a step about one job of an action on a node (a drain's checkpoint of each job on it): what it logs
     * names the job as well as the node.
     */
    private static StepRunner.Body aboutJob(String job, StepRunner.Body body) {
        return () -> {
            try (LogContext about = LogContext.job(job)) {
                return body.run();
            }
        };
    }

    /**
     * A cluster call's outcome as the step's. A call refused for now (the API server unavailable, HTTP 429) leaves the
     * step waiting for another attempt until the deadline, without holding a worker, and fails it there with the last
     * reason: an API server restarting must not fail a drain that has minutes left.
     */
    private StepOutcome cluster(ClusterOutcome out, Instant deadline) throws StepRunner.Waiting {
        if (out.result() == ClusterOutcome.Result.RETRY_LATER) {
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) {
                return StepOutcome.failed("still refused at the deadline: " + out.detail());
            }
            throw new StepRunner.Waiting(until(now, deadline, config.evictRetryInterval()));
        }
        return out.result().ok()
                ? StepOutcome.done(out.result().name().toLowerCase(java.util.Locale.ROOT)
                        + (out.detail() == null || out.detail().isEmpty() ? "" : ": " + out.detail()))
                : StepOutcome.failed(out.result().name().toLowerCase(java.util.Locale.ROOT) + ": " + out.detail());
    }

    /** The checkpoint baseline a request step recorded (typed; parsed from the detail of a step of an earlier version). */
    static long baseline(StepOutcome req) {
        if (req.result() instanceof StepResult.CheckpointRequested c) {
            return c.baselineStep();
        }
        String d = req.detail();
        int at = d.indexOf(BASELINE);
        if (at < 0) {
            return Long.MIN_VALUE;
        }
        int end = d.indexOf(' ', at);
        return Long.parseLong(d.substring(at + BASELINE.length(), end < 0 ? d.length() : end));
    }

    /**
     * What a restore's check step found (typed; parsed from the detail {@code restoreCount=N uri=U} of a step of an
     * earlier version, so that a restore it left running goes on after the upgrade).
     */
    static StepResult.CheckpointChecked checked(StepOutcome check, String checkpointId) {
        if (check.result() instanceof StepResult.CheckpointChecked c) {
            return c;
        }
        String d = check.detail() == null ? "" : check.detail();
        int uriAt = d.indexOf(URI);
        if (!d.startsWith(RESTORE_COUNT) || uriAt < 0) {
            throw new IllegalStateException("step 'check checkpoint' recorded nothing readable: " + d);
        }
        int count = Integer.parseInt(d.substring(RESTORE_COUNT.length(), uriAt).trim());
        return new StepResult.CheckpointChecked(checkpointId, count, d.substring(uriAt + URI.length()));
    }

    static long newestGoodStep(CheckpointHistory h) {
        return newestGoodStep(h, c -> true);
    }

    /**
     * Whether a good checkpoint that counts answers a request made at {@code asked}: one of a newer step than the
     * baseline, or one started after the request (a run restored from an older checkpoint saves lower steps).
     */
    static boolean answers(CheckpointHistory h, Predicate<CheckpointView> counts, long baseline, Instant asked) {
        if (newestGoodStep(h, counts) > baseline) {
            return true;
        }
        if (h == null || asked == null) {
            return false;
        }
        for (CheckpointView c : h.checkpoints()) {
            if ((c.status() == CheckpointStatus.COMPLETED || c.status() == CheckpointStatus.VERIFIED)
                    && counts.test(c)
                    && c.startedAt() != null
                    && c.startedAt().isAfter(asked)) {
                return true;
            }
        }
        return false;
    }

    /** The step of the newest good checkpoint {@code counts} accepts, or -1. */
    static long newestGoodStep(CheckpointHistory h, Predicate<CheckpointView> counts) {
        CheckpointView c = newestGood(h, counts);
        return c == null ? -1 : c.step();
    }

    /** The good (completed or verified) checkpoint of the highest step {@code counts} accepts, or null. */
    static CheckpointView newestGood(CheckpointHistory h, Predicate<CheckpointView> counts) {
        CheckpointView best = null;
        if (h != null) {
            for (CheckpointView c : h.checkpoints()) {
                if ((c.status() == CheckpointStatus.COMPLETED || c.status() == CheckpointStatus.VERIFIED)
                        && counts.test(c)
                        && c.step() >= 0
                        && (best == null || c.step() > best.step())) {
                    best = c;
                }
            }
        }
        return best;
    }

    private static String describe(List<PodRef> pods) {
        return pods.size() + " training pod(s)";
    }

    private <T> T read(Function<LiveModel, T> q) throws InterruptedException {
        try {
            // Ahead of queued ingest batches: an action acts on the present and must not wait behind a full queue.
            return runtime.readNow(q).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("model read failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("model read timed out after " + Duration.ofSeconds(30));
        }
    }
}
