package io.lifeline.demo;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

/**
 * The jobs as torchrun elastic agents and their training loops: submission and admission, rendezvous,
 * restore, progress, and the reaction to lost nodes and crashed ranks (workers fail, agents restart,
 * re-rendezvous at the size that is left if it is at least min, restore from the newest complete
 * checkpoint, so the steps after it are done again). Planned membership changes (growth when capacity is
 * back, rescale and suspend commands) save first and lose no work.
 */
final class Trainer {

    private final SimContext ctx;
    private final List<SimJob> jobs;

    Trainer(SimContext ctx, List<SimJob> jobs) {
        this.ctx = ctx;
        this.jobs = jobs;
    }

    void start() {
        long progressMs = ctx.scenario.progressIntervalSeconds() * 1000;
        for (SimJob job : jobs) {
            job.workload = "pytorchjob-" + job.spec.name() + "-" + ctx.rng.hex(5);
            ctx.agenda.after(job.spec.startAfterSeconds() * 1000 + ctx.rng.millisBetween(0, 5), () -> submit(job));
            ctx.agenda.after((long) ctx.rng.uniform(0, progressMs), () -> progressLoop(job, progressMs));
        }
    }

    private void submit(SimJob job) {
        job.moveTo(JobPhase.PENDING, ctx.now());
        Scenario.Job s = job.spec;
        ctx.emit(
                Emitter.OPERATOR,
                EventType.JOB_SUBMITTED,
                job.key,
                new JobData.Submitted(
                        s.namespace(),
                        s.owner(),
                        s.priorityClass(),
                        new ElasticPolicy(s.minNodes(), s.maxNodes(), s.procsPerNode(), s.maxRestarts()),
                        s.procsPerNode(),
                        s.checkpoint().intervalSeconds()));
        ctx.placement.capacityChanged();
    }

    private void progressLoop(SimJob job, long interval) {
        if (job.phase == JobPhase.FAILED) {
            return;
        }
        if (job.training()) {
            long now = ctx.now();
            double samples =
                    ctx.rng.jitter(job.spec.samplesPerStep() * 1000.0 / job.stepMillis(job.world.size()), 0.02);
            Double tokens =
                    job.spec.tokensPerSample() > 0 ? Math.round(samples * job.spec.tokensPerSample()) * 1.0 : null;
            ctx.emit(
                    Emitter.TRAINER,
                    EventType.TRAINER_PROGRESS,
                    job.key,
                    new TrainerData.Progress(job.step(now), Math.round(samples * 10) / 10.0, tokens));
        }
        ctx.agenda.after(interval, () -> progressLoop(job, interval));
    }

    // ------------------------------------------------------------------ capacity (called by Placement)

    /** The scheduler admitted a pending job: its nodes are reserved; pods start, then the first rendezvous. */
    void admitted(SimJob job) {
        job.moveTo(JobPhase.STARTING, ctx.now());
        ctx.emit(
                Emitter.SCHEDULER,
                EventType.WORKLOAD_ADMITTED,
                job.key,
                new SchedulerData.Admitted(job.workload, job.spec.queue()));
        scheduleRendezvous(job, ctx.rng.millisBetween(20, 60));
    }

    /** A job waiting below min got enough nodes back: new pods start, then the agents re-rendezvous. */
    void capacityBack(SimJob job) {
        job.moveTo(JobPhase.RESTARTING, ctx.now());
        scheduleRendezvous(job, ctx.rng.millisBetween(20, 60));
    }

    /** A running job got nodes reserved: once their pods are up, it saves and re-rendezvous bigger. */
    void grow(SimJob job) {
        if (job.growthEpoch == job.epoch) {
            return;
        }
        job.growthEpoch = job.epoch;
        int e = job.epoch;
        ctx.agenda.after(ctx.rng.millisBetween(30, 60), () -> {
            if (job.epoch != e || job.phase != JobPhase.RUNNING || job.reserved.isEmpty()) {
                return;
            }
            job.growthEpoch = -1;
            beginChange(job, "membership change: scale up from " + job.world.size() + " nodes (capacity available)");
        });
    }

    // ------------------------------------------------------------------ rendezvous and restore

    private void scheduleRendezvous(SimJob job, long delayMs) {
        int e = job.epoch;
        ctx.agenda.after(delayMs, () -> {
            if (job.epoch == e) {
                rendezvous(job);
            }
        });
    }

    private void rendezvous(SimJob job) {
        if (job.phase != JobPhase.STARTING && job.phase != JobPhase.RESTARTING) {
            return;
        }
        long now = ctx.now();
        job.world.addAll(job.reserved);
        job.reserved.clear();
        if (job.world.size() < job.target) {
            ctx.placement.reserve(job, job.target - job.world.size());
            job.world.addAll(job.reserved);
            job.reserved.clear();
        }
        if (job.world.size() > job.target) {
            for (SimNode n : chooseDrop(job, job.world.size() - job.target)) {
                job.world.remove(n);
                ctx.placement.release(n);
            }
        }
        if (job.world.size() < job.spec.minNodes()) {
            for (SimNode n : job.world) {
                n.inWorld = false;
            }
            job.reserved.addAll(job.world);
            job.world.clear();
            job.moveTo(JobPhase.WAITING, now);
            if (job.suspendWanted) {
                job.suspendWanted = false;
                suspendNow(job);
            }
            return;
        }
        job.round++;
        int procs = job.spec.procsPerNode();
        List<TrainerData.Participant> participants = new ArrayList<>(job.world.size());
        for (int i = 0; i < job.world.size(); i++) {
            SimNode n = job.world.get(i);
            n.worldIndex = i;
            n.inWorld = true;
            n.pod = job.podName(i);
            participants.add(new TrainerData.Participant(n.name, i * procs, procs));
        }
        ctx.emit(
                Emitter.AGENT,
                EventType.TRAINER_RENDEZVOUS,
                job.key,
                new TrainerData.Rendezvous(job.runId, job.round, job.world.size() * procs, participants));
        job.moveTo(JobPhase.RESTORING, now);
        double seconds = job.newest == null
                ? ctx.rng.uniform(8, 20)
                : ctx.rng.jitter(job.spec.checkpoint().restoreSeconds(), 0.2);
        int e = job.epoch;
        ctx.agenda.after(Math.round(seconds * 1000), () -> {
            if (job.epoch == e) {
                restored(job);
            }
        });
    }

    private void restored(SimJob job) {
        long now = ctx.now();
        // A restore command or annotation names the checkpoint; otherwise the newest complete one.
        SimJob.Checkpoint from = job.restoreFrom != null ? job.restoreFrom : job.newest;
        job.restoreFrom = null;
        job.holdAfterSave = false;
        if (from != null) {
            ctx.emit(
                    Emitter.TRAINER,
                    EventType.TRAINER_RESTORED,
                    job.key,
                    new TrainerData.Restored(from.id(), from.step(), job.runId));
            job.resetSteps(from.step(), now);
        } else {
            job.resetSteps(0, now);
        }
        job.setBlocked(false, now);
        job.moveTo(JobPhase.RUNNING, now);
        ctx.checkpoints.armPeriodic(job);
        ctx.commands.resolve(
                job,
                EnumSet.of(SimJob.CommandKind.RESCALE, SimJob.CommandKind.RESUME, SimJob.CommandKind.RESTORE),
                TrainerData.AckStatus.DONE,
                "training on " + job.world.size()
                        + " nodes, world size " + job.world.size() * job.spec.procsPerNode() + ", from step "
                        + job.step(now)
                        + (from == null ? "" : " (checkpoint " + from.id() + ")"));
        if (job.suspendWanted) {
            job.suspendWanted = false;
            beginSuspend(job);
            return;
        }
        ctx.placement.capacityChanged();
    }

    // ------------------------------------------------------------------ failures

    /** A node the job holds is gone (terminated or NotReady): its ranks die with it if they were running. */
    void nodeLost(SimJob job, SimNode node, int exitCode, String error, String reason) {
        boolean killsRanks = node.inWorld && job.phase.workersAlive();
        if (killsRanks) {
            int first = node.firstRank();
            for (int r = first; r < first + job.spec.procsPerNode(); r++) {
                ctx.emit(
                        Emitter.AGENT,
                        EventType.TRAINER_WORKER_FAILED,
                        job.key,
                        new TrainerData.WorkerFailed(job.runId, r, node.name, exitCode, error));
            }
        }
        job.world.remove(node);
        job.reserved.remove(node);
        ctx.placement.release(node);
        if (killsRanks) {
            workersFailed(job, reason);
        }
    }

    /** One rank died (its node stays): the whole job restarts from its newest checkpoint on the same nodes. */
    void rankCrashed(SimJob job, SimNode node, int gpu, String error, String reason) {
        ctx.emit(
                Emitter.AGENT,
                EventType.TRAINER_WORKER_FAILED,
                job.key,
                new TrainerData.WorkerFailed(job.runId, node.firstRank() + gpu, node.name, 1, error));
        workersFailed(job, reason);
    }

    private void workersFailed(SimJob job, String reason) {
        long now = ctx.now();
        ctx.checkpoints.abortInFlight(job, "interrupted: " + reason);
        ctx.commands.resolve(
                job,
                EnumSet.of(
                        SimJob.CommandKind.CHECKPOINT,
                        SimJob.CommandKind.DURABLE_CHECKPOINT,
                        SimJob.CommandKind.SUSPEND),
                TrainerData.AckStatus.FAILED,
                "interrupted: " + reason);
        job.setBlocked(false, now);
        job.epoch++;
        job.changeReason = null;
        job.moveTo(JobPhase.RESTARTING, now);
        job.restarts++;
        if (job.restarts > job.spec.maxRestarts()) {
            job.moveTo(JobPhase.FAILED, now);
            releaseAll(job);
            ctx.emit(
                    Emitter.OPERATOR,
                    EventType.JOB_FINISHED,
                    job.key,
                    new JobData.Finished(
                            JobData.Outcome.FAILED,
                            "exceeded max restarts (" + job.spec.maxRestarts() + "): " + reason));
            ctx.placement.capacityChanged();
            return;
        }
        int e = job.epoch;
        int count = job.restarts;
        ctx.agenda.after(ctx.rng.millisBetween(3, 10), () -> {
            if (job.epoch == e) {
                ctx.emit(
                        Emitter.AGENT,
                        EventType.TRAINER_RESTARTED,
                        job.key,
                        new TrainerData.Restarted(job.runId, count, reason));
                scheduleRendezvous(job, ctx.rng.millisBetween(10, 30));
            }
        });
        ctx.placement.capacityChanged();
    }

    // ------------------------------------------------------------------ planned changes

    /**
     * Restarts the workers on the nodes they hold, without a failure: to load another checkpoint (a restore
     * command). A save in flight is abandoned; the restore that follows loads {@code job.restoreFrom}.
     */
    void restart(SimJob job, String reason) {
        long now = ctx.now();
        ctx.checkpoints.abortInFlight(job, "restarted: " + reason);
        ctx.commands.resolve(
                job,
                EnumSet.of(SimJob.CommandKind.CHECKPOINT, SimJob.CommandKind.DURABLE_CHECKPOINT),
                TrainerData.AckStatus.FAILED,
                "restarted: " + reason);
        job.setBlocked(false, now);
        job.epoch++;
        job.changeReason = null;
        job.moveTo(JobPhase.RESTARTING, now);
        ctx.emit(
                Emitter.AGENT,
                EventType.TRAINER_RESTARTED,
                job.key,
                new TrainerData.Restarted(job.runId, job.restarts, reason));
        scheduleRendezvous(job, ctx.rng.millisBetween(8, 20));
    }

    /** Starts a planned membership change: pause, save what is unsaved, then restart at the new size. */
    void beginChange(SimJob job, String reason) {
        job.moveTo(JobPhase.RESCALING, ctx.now());
        job.changeReason = reason;
        ctx.checkpoints.secure(job);
    }

    /**
     * The job's workers were set below the nodes in its world (its replicas patched). Training, it saves first, as for
     * any planned change. Still loading its checkpoint, it has trained nothing since, so its workers restart at the new
     * size at once: left alone, it would train on all its nodes after the restore and never shrink. In any other phase
     * the next rendezvous (or the change under way) takes the new size.
     */
    void workersReduced(SimJob job, String reason) {
        switch (job.phase) {
            case RUNNING -> beginChange(job, reason);
            case RESTORING -> changeReady(job);
            default -> {}
        }
    }

    void beginSuspend(SimJob job) {
        job.moveTo(JobPhase.SUSPENDING, ctx.now());
        ctx.checkpoints.secure(job);
    }

    /**
     * Called when a job that is RESCALING or SUSPENDING has nothing left to save, or one that is RESTORING must change
     * size (nothing trained since the checkpoint it loads).
     */
    void changeReady(SimJob job) {
        if (job.phase == JobPhase.SUSPENDING) {
            suspendNow(job);
            return;
        }
        long now = ctx.now();
        job.changeReason = null;
        job.epoch++;
        job.moveTo(JobPhase.RESTARTING, now);
        if (job.world.size() > job.target) {
            for (SimNode n : chooseDrop(job, job.world.size() - job.target)) {
                job.world.remove(n);
                ctx.placement.release(n);
            }
        }
        // A membership change is no restart for torchelastic (agent_restarts stays, no worker failed): the agent
        // stops its workers and only the new round says so.
        scheduleRendezvous(job, ctx.rng.millisBetween(8, 20));
        ctx.placement.capacityChanged();
    }

    /** Stops the job and gives its nodes back (after its save, if it was running). */
    void suspendNow(SimJob job) {
        boolean admitted = job.phase != JobPhase.PENDING;
        job.epoch++;
        releaseAll(job);
        job.moveTo(JobPhase.SUSPENDED, ctx.now());
        if (admitted) {
            ctx.emit(Emitter.SCHEDULER, EventType.WORKLOAD_EVICTED, job.key, new SchedulerData.Evicted("Suspended"));
        }
        ctx.commands.resolve(
                job,
                EnumSet.of(SimJob.CommandKind.SUSPEND),
                TrainerData.AckStatus.DONE,
                "suspended"
                        + (job.newest == null
                                ? ""
                                : " at checkpoint " + job.newest.id() + ", step " + job.newest.step()));
        ctx.placement.capacityChanged();
    }

    void resume(SimJob job) {
        job.moveTo(JobPhase.PENDING, ctx.now());
        ctx.placement.capacityChanged();
    }

    private void releaseAll(SimJob job) {
        for (SimNode n : job.world) {
            ctx.placement.release(n);
        }
        for (SimNode n : job.reserved) {
            ctx.placement.release(n);
        }
        job.world.clear();
        job.reserved.clear();
    }

    /** Which nodes leave on a shrink: cordoned (noticed) ones first, then spot before on-demand, then the last ranks. */
    private static List<SimNode> chooseDrop(SimJob job, int count) {
        List<SimNode> order = new ArrayList<>(job.world);
        order.sort(Comparator.comparing((SimNode n) -> n.phase != NodePhase.NOTICED)
                .thenComparing(n -> n.pool.spec.capacityType() != CapacityType.SPOT)
                .thenComparing(n -> -job.world.indexOf(n)));
        return order.subList(0, Math.min(count, order.size()));
    }
}
