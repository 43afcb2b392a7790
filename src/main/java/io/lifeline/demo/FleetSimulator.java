package io.lifeline.demo;

import io.lifeline.domain.event.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * A seeded discrete-event simulation of a GPU fleet and the elastic training jobs on it, producing the same
 * catalogue events a real fleet would send Lifeline: nodes registering, spot notices and terminations, XID
 * errors, GPU samples, scheduler admissions, rendezvous, worker failures, restarts, checkpoints, restores and
 * progress. Time is whatever the caller says: {@link #advanceTo} runs the simulation up to an instant, so the
 * same simulator serves a real-time demo and an accelerated test or load run.
 *
 * <p>Deterministic: the same scenario, seed and start instant give exactly the same events (ids included),
 * provided the same commands (and {@linkplain #resumeAt resumptions}) are given at the same simulated times. So a run
 * can be rebuilt exactly from its scenario, start and the calls made on it. Event ids are unique within a run and
 * carry a tag derived from seed and start, so two runs do not collide in deduplication.
 *
 * <p>Not thread-safe: one thread drives it (the commands included).
 */
public final class FleetSimulator {

    private static final Pattern SUBJECT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]*");

    private final Scenario scenario;
    private final SimContext ctx;
    private final Map<String, SimJob> jobs = new LinkedHashMap<>();
    private final Commands commands;
    private final ClusterOps cluster;

    /**
     * @param scenario  the fleet and its jobs; must have no {@linkplain Scenario#problems() problems}
     * @param start     simulated start instant: the initial fleet registers at this time
     * @throws IllegalArgumentException listing the scenario's problems
     */
    public FleetSimulator(Scenario scenario, Instant start) {
        Objects.requireNonNull(start, "start");
        List<String> problems = scenario.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid scenario: " + String.join("; ", problems));
        }
        this.scenario = scenario;
        long startMillis = start.toEpochMilli();
        Agenda agenda = new Agenda(startMillis);
        Rng rng = new Rng(scenario.seed());
        this.ctx = new SimContext(scenario, agenda, rng, new Emitter(runTag(scenario.seed(), startMillis), agenda));
        ctx.fleet = new Fleet(ctx);
        List<SimJob> jobList = new ArrayList<>();
        for (Scenario.Job spec : scenario.jobs()) {
            List<PoolState> pools = new ArrayList<>();
            if (spec.pools().isEmpty()) {
                pools.addAll(ctx.fleet.pools);
            } else {
                for (String p : spec.pools()) {
                    pools.add(ctx.fleet.pool(p));
                }
            }
            SimJob job = new SimJob(spec, pools, spec.name() + "-" + rng.hex(6), rng.uniform(0.72, 0.93));
            jobList.add(job);
            jobs.put(job.key, job);
        }
        ctx.placement = new Placement(ctx, Collections.unmodifiableList(jobList));
        ctx.trainer = new Trainer(ctx, jobList);
        ctx.checkpoints = new Checkpoints(ctx);
        this.commands = new Commands(ctx, jobs);
        ctx.commands = commands;
        this.cluster = new ClusterOps(ctx, jobs);
        ctx.fleet.start();
        ctx.trainer.start();
    }

    private static String runTag(long seed, long startMillis) {
        long mixed = new SplittableRandom(seed ^ Long.rotateLeft(startMillis, 17)).nextLong();
        return "demo-" + String.format("%016x", mixed).substring(0, 10);
    }

    /**
     * Runs the simulation up to {@code until} (inclusive) and returns every event that happened since the
     * previous call, in non-decreasing time order. An instant at or before the current time returns what
     * commands produced meanwhile, if anything.
     */
    public List<Event> advanceTo(Instant until) {
        ctx.agenda.runUntil(ctx.emitter.unstamp(until.toEpochMilli()));
        return ctx.emitter.drain();
    }

    /** The time reached, as the fleet's events tell it (the simulated time, later by any pause). */
    public Instant now() {
        return Instant.ofEpochMilli(ctx.emitter.stamp(ctx.now()));
    }

    /**
     * The fleet stood still from its time now until {@code at} and goes on from there: what comes next happens and is
     * stamped that much later, and nothing happened meanwhile (no step trained, no node reclaimed, no save finished).
     * This is how the demo continues after the application that runs it was stopped. Nothing happens when {@code at}
     * is not after {@link #now()}.
     */
    public void resumeAt(Instant at) {
        long pause = at.toEpochMilli() - now().toEpochMilli();
        if (pause > 0) {
            ctx.emitter.paused(pause);
        }
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Events produced so far. */
    public long eventCount() {
        return ctx.emitter.emitted();
    }

    /**
     * Asks the job's trainers to save a checkpoint now. They acknowledge ({@code accepted} or {@code rejected}),
     * then answer {@code done} when a save completes, or {@code failed} when it fails, the job is interrupted or
     * the deadline passes first. Takes effect a fraction of a second after the current simulated time.
     *
     * @param commandId  the caller's id, echoed in {@code trainer.command_ack}
     * @param job        {@code namespace/name}
     * @param deadline   when the caller stops waiting, may be null
     */
    public void requestCheckpoint(String commandId, String job, Instant deadline) {
        check(commandId, job);
        Long at = deadline == null ? null : ctx.emitter.unstamp(deadline.toEpochMilli());
        commands.deliver(() -> commands.checkpoint(commandId, job, at));
    }

    /**
     * Asks a running job to train on {@code nodes} nodes (within its elastic bounds, with enough free capacity
     * to grow). It saves, restarts and re-rendezvous at the new size without losing work, then answers
     * {@code done}. The size becomes the job's target: it no longer grows past it on its own.
     */
    public void requestRescale(String commandId, String job, int nodes) {
        check(commandId, job);
        commands.deliver(() -> commands.rescale(commandId, job, nodes));
    }

    /** Asks a job to save and stop, giving its nodes back; answered {@code done} once suspended. */
    public void suspend(String commandId, String job) {
        check(commandId, job);
        commands.deliver(() -> commands.suspend(commandId, job));
    }

    /** Asks a suspended job to start again from its newest checkpoint; answered {@code done} once training. */
    public void resume(String commandId, String job) {
        check(commandId, job);
        commands.deliver(() -> commands.resume(commandId, job));
    }

    /**
     * Asks a job's trainers to restart from a named complete checkpoint (one of the last 32 the job saved).
     * Accepted, then {@code done} once restored; rejected for a checkpoint it does not know. A running job
     * restarts at once (the steps after that checkpoint are lost); any other keeps it for its next restore.
     */
    public void restore(String commandId, String job, String checkpointId) {
        check(commandId, job);
        commands.deliver(() -> commands.restore(commandId, job, checkpointId));
    }

    /** Sets a job's periodic checkpoint interval (10 s to 7 days); accepted and done at once. */
    public void setCheckpointInterval(String commandId, String job, long seconds) {
        check(commandId, job);
        commands.deliver(() -> commands.setInterval(commandId, job, seconds));
    }

    /**
     * A command that only informs the trainers (a rescale notice, for example): acknowledged {@code accepted}
     * and {@code done} under its name; what follows comes from the cluster (replicas patched).
     */
    public void note(String commandId, String command, String job) {
        check(commandId, job);
        commands.deliver(() -> commands.noted(commandId, command, job));
    }

    /**
     * A save now, acknowledged under {@code command}, like {@link #requestCheckpoint}. For {@code prepare_exit} the
     * trainers then stay paused (no steps an eviction would throw away) until the job restarts, or until the
     * deadline (10 minutes without one) if nothing came.
     */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline) {
        requestCheckpoint(commandId, command, job, deadline, false);
    }

    /**
     * Like {@link #requestCheckpoint(String, String, String, Instant)}; {@code durable}: the save must outlive the
     * node ({@code storage=durable}). A job that writes to its nodes' local disks then saves to its durable location,
     * and refuses the command when it has none; a job writing to object storage saves as always.
     */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline, boolean durable) {
        check(commandId, job);
        Long at = deadline == null ? null : ctx.emitter.unstamp(deadline.toEpochMilli());
        commands.deliver(() -> commands.checkpoint(commandId, command, job, at, durable));
    }

    // ------------------------------------------------------------------ the cluster, as Kubernetes would act on it

    /** Cordons a live node now: {@code node.cordoned}, and no new placements on it; its pods keep running. */
    public SimOutcome cordon(String node) {
        return cluster.cordon(node);
    }

    /** Makes a cordoned node schedulable again: {@code node.uncordoned}; free capacity is handed out at once. */
    public SimOutcome uncordon(String node) {
        return cluster.uncordon(node);
    }

    /** The training pods on a node now (at most one: a job holds whole nodes). */
    public List<SimPod> podsOn(String node) {
        return cluster.podsOn(node);
    }

    /**
     * Evicts a pod now: {@code pod.evicted}, then the job loses that node's ranks through the failure path
     * ({@code trainer.worker_failed}, restart from the newest checkpoint, smaller if still at least min nodes,
     * else waiting for capacity). The node is free again unless cordoned.
     */
    public SimOutcome evict(String namespace, String pod) {
        return cluster.evict(namespace, pod);
    }

    /** The nodes a job's pods run on now (those it trains on and those held for it); empty for an unknown job. */
    public java.util.Set<String> nodesOfJob(String job) {
        return cluster.nodesOfJob(job);
    }

    /** The job ({@code namespace/name}) whose pod this is now, or null (no such pod). */
    public String jobOfPod(String namespace, String pod) {
        return cluster.jobOfPod(namespace, pod);
    }

    /** Sets a job's worker nodes within its elastic bounds (a running job saves, then re-rendezvous). */
    public SimOutcome scaleWorkers(String job, int nodes) {
        return cluster.scaleWorkers(job, nodes);
    }

    /** Suspends (saving first when training) or resumes a job, as {@code runPolicy.suspend} would. */
    public SimOutcome setSuspended(String job, boolean suspended) {
        return cluster.suspend(job, suspended);
    }

    /** Names the checkpoint the job's next restore loads (one of its last 32 complete ones). */
    public SimOutcome restoreFrom(String job, String checkpointId) {
        return cluster.restoreFrom(job, checkpointId);
    }

    /** Whether the scenario has this job ({@code namespace/name}). */
    public boolean hasJob(String job) {
        return jobs.containsKey(job);
    }

    /**
     * Fault injection for demos and tests: the cloud reclaims this spot or on-demand node now, with the pool's
     * notice lead time. Ignored when the node is gone or not ready by then.
     *
     * @throws IllegalArgumentException when no such node is live now
     */
    public void injectNotice(String node) {
        if (ctx.fleet.node(node) == null) {
            throw new IllegalArgumentException("no live node '" + node + "'");
        }
        ctx.agenda.after(0, () -> {
            SimNode n = ctx.fleet.node(node);
            if (n != null && n.phase == NodePhase.READY) {
                ctx.fleet.notice(n);
            }
        });
    }

    /**
     * Fault injection for demos and tests: an XID on one GPU of a node now, with the effect the catalogue gives
     * it (79, 48, 95, 119 take the node down; 94 crashes the rank on that GPU; 13, 31, 43 are logged only).
     * Ignored when the node is gone or not ready by then.
     *
     * @throws IllegalArgumentException when the node, the GPU index or the code is unknown
     */
    public void injectXid(String node, int gpu, int xid) {
        SimNode n = ctx.fleet.node(node);
        if (n == null) {
            throw new IllegalArgumentException("no live node '" + node + "'");
        }
        if (gpu < 0 || gpu >= n.uuids.length) {
            throw new IllegalArgumentException("gpu: must be between 0 and " + (n.uuids.length - 1) + ", got " + gpu);
        }
        XidCatalog.Xid x = XidCatalog.find(xid);
        if (x == null) {
            throw new IllegalArgumentException(
                    "xid: the simulator knows 79, 48, 94, 95, 119, 13, 31 and 43, got " + xid);
        }
        ctx.agenda.after(0, () -> {
            if (n.phase == NodePhase.READY) {
                ctx.fleet.injectXid(n, gpu, x);
            }
        });
    }

    private static void check(String commandId, String job) {
        if (commandId == null || commandId.isBlank() || commandId.length() > 256) {
            throw new IllegalArgumentException("commandId: required, at most 256 characters");
        }
        if (job == null || job.length() > 253 || !SUBJECT.matcher(job).matches()) {
            throw new IllegalArgumentException("job: expected namespace/name, got '" + job + "'");
        }
    }
}
