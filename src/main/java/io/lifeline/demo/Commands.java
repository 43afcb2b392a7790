package io.lifeline.demo;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.AckStatus;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How the simulated trainers answer Lifeline's commands: each command is acknowledged ({@code accepted} or
 * {@code rejected} with a reason), then answered {@code done} or {@code failed} when its effect happened or
 * could not. Commands reach the trainer a fraction of a second after they are sent.
 */
final class Commands {

    static final String CHECKPOINT = "checkpoint";
    static final String RESCALE = "rescale";
    static final String SUSPEND = "suspend";
    static final String RESUME = "resume";
    static final String RESTORE = "restore_from";
    static final String SET_INTERVAL = "set_checkpoint_interval";
    static final String PREPARE_EXIT = "prepare_exit";
    /** How long a job prepared to exit without a deadline stays paused when no eviction comes. */
    static final long PREPARE_EXIT_HOLD_MS = 10 * 60_000;
    /** Shortest and longest checkpoint interval a command may set, in seconds. */
    static final long MIN_INTERVAL_S = 10;

    static final long MAX_INTERVAL_S = 7 * 86_400;

    private final SimContext ctx;
    private final Map<String, SimJob> jobs;

    Commands(SimContext ctx, Map<String, SimJob> jobs) {
        this.ctx = ctx;
        this.jobs = jobs;
    }

    /** Delivers a command after a short transport delay. */
    void deliver(Runnable command) {
        ctx.agenda.after(ctx.rng.millisBetween(0.15, 0.6), command);
    }

    void checkpoint(String commandId, String jobKey, Long deadline) {
        checkpoint(commandId, CHECKPOINT, jobKey, deadline, false);
    }

    /**
     * A save now, under the command's own name ({@code checkpoint}, {@code prepare_exit}...); {@code durable}: on
     * storage that outlives the node ({@code storage=durable}), which a job writing to its nodes' local disks does
     * to its durable location, and refuses when it has none.
     */
    void checkpoint(String commandId, String command, String jobKey, Long deadline, boolean durable) {
        SimJob job = acceptable(commandId, command, jobKey);
        if (job == null) {
            return;
        }
        JobPhase phase = job.phase;
        if (phase != JobPhase.RUNNING && phase != JobPhase.RESCALING && phase != JobPhase.SUSPENDING) {
            ack(jobKey, commandId, command, AckStatus.REJECTED, notTraining(job));
            return;
        }
        Scenario.Checkpointing spec = job.spec.checkpoint();
        boolean local = !spec.uriPrefix().contains("://") || spec.uriPrefix().startsWith("file://");
        if (durable && local && spec.durableUriPrefix() == null) {
            ack(
                    jobKey,
                    commandId,
                    command,
                    AckStatus.REJECTED,
                    "no durable checkpoint storage configured: this job" + " saves only to its nodes' local disks ("
                            + spec.uriPrefix() + ")");
            return;
        }
        ack(jobKey, commandId, command, AckStatus.ACCEPTED, null);
        boolean exit = PREPARE_EXIT.equals(command);
        // prepare_exit: saved means every step before the hold is saved, so a save still uploading an older step
        // does not answer it (the trainers save again at the step they hold at). A checkpoint-now joins it.
        job.commands.add(new SimJob.PendingCommand(
                commandId,
                command,
                durable && spec.durableUriPrefix() != null
                        ? SimJob.CommandKind.DURABLE_CHECKPOINT
                        : SimJob.CommandKind.CHECKPOINT,
                deadline == null ? Long.MAX_VALUE : deadline,
                exit && phase == JobPhase.RUNNING ? job.step(ctx.now()) : Long.MIN_VALUE));
        if (deadline != null) {
            ctx.agenda.at(deadline, () -> expire(job, commandId));
        }
        if (exit) {
            if (phase == JobPhase.RUNNING) {
                ctx.checkpoints.prepareExit(job, deadline == null ? ctx.now() + PREPARE_EXIT_HOLD_MS : deadline);
            }
        } else if (phase == JobPhase.RUNNING) {
            ctx.checkpoints.requestNow(job);
        }
    }

    void rescale(String commandId, String jobKey, int nodes) {
        SimJob job = acceptable(commandId, RESCALE, jobKey);
        if (job == null) {
            return;
        }
        Scenario.Job s = job.spec;
        if (nodes < s.minNodes() || nodes > s.maxNodes()) {
            ack(
                    jobKey,
                    commandId,
                    RESCALE,
                    AckStatus.REJECTED,
                    "requested " + nodes + " nodes, outside the elastic bounds " + s.minNodes() + ".." + s.maxNodes());
            return;
        }
        if (job.phase != JobPhase.RUNNING) {
            ack(jobKey, commandId, RESCALE, AckStatus.REJECTED, notTraining(job));
            return;
        }
        int need = nodes - job.world.size() - job.reserved.size();
        int free = ctx.placement.freeFor(job);
        if (need > free) {
            ack(
                    jobKey,
                    commandId,
                    RESCALE,
                    AckStatus.REJECTED,
                    "growing to " + nodes + " nodes needs " + need + " more, only " + free
                            + " free in the job's pools");
            return;
        }
        ack(jobKey, commandId, RESCALE, AckStatus.ACCEPTED, null);
        job.target = nodes;
        while (job.world.size() + job.reserved.size() > nodes && !job.reserved.isEmpty()) {
            ctx.placement.release(job.reserved.remove(job.reserved.size() - 1));
        }
        if (nodes == job.world.size() && job.reserved.isEmpty()) {
            ack(jobKey, commandId, RESCALE, AckStatus.DONE, "already training on " + nodes + " nodes");
            ctx.placement.capacityChanged();
            return;
        }
        if (need > 0) {
            ctx.placement.reserve(job, need);
        }
        job.commands.add(new SimJob.PendingCommand(commandId, RESCALE, SimJob.CommandKind.RESCALE, Long.MAX_VALUE));
        ctx.trainer.beginChange(
                job,
                "membership change: rescale from " + job.world.size() + " to " + nodes + " nodes (command " + commandId
                        + ")");
    }

    void suspend(String commandId, String jobKey) {
        SimJob job = acceptable(commandId, SUSPEND, jobKey);
        if (job == null) {
            return;
        }
        switch (job.phase) {
            case SUSPENDED -> ack(jobKey, commandId, SUSPEND, AckStatus.DONE, "already suspended");
            case RUNNING, PENDING, WAITING -> {
                ack(jobKey, commandId, SUSPEND, AckStatus.ACCEPTED, null);
                job.commands.add(
                        new SimJob.PendingCommand(commandId, SUSPEND, SimJob.CommandKind.SUSPEND, Long.MAX_VALUE));
                if (job.phase == JobPhase.RUNNING) {
                    ctx.trainer.beginSuspend(job);
                } else {
                    ctx.trainer.suspendNow(job);
                }
            }
            default ->
                ack(
                        jobKey,
                        commandId,
                        SUSPEND,
                        AckStatus.REJECTED,
                        "job is " + phaseName(job) + "; retry once it is training or waiting");
        }
    }

    void resume(String commandId, String jobKey) {
        SimJob job = acceptable(commandId, RESUME, jobKey);
        if (job == null) {
            return;
        }
        if (job.phase != JobPhase.SUSPENDED) {
            ack(jobKey, commandId, RESUME, AckStatus.REJECTED, "job is not suspended (it is " + phaseName(job) + ")");
            return;
        }
        ack(jobKey, commandId, RESUME, AckStatus.ACCEPTED, null);
        job.commands.add(new SimJob.PendingCommand(commandId, RESUME, SimJob.CommandKind.RESUME, Long.MAX_VALUE));
        ctx.trainer.resume(job);
    }

    /**
     * Restart from a named complete checkpoint: accepted, then done once the trainers restored it. A running job
     * restarts now; any other keeps the choice for its next restore.
     */
    void restore(String commandId, String jobKey, String checkpointId) {
        SimJob job = acceptable(commandId, RESTORE, jobKey);
        if (job == null) {
            return;
        }
        SimJob.Checkpoint c = checkpointId == null ? null : job.checkpoint(checkpointId);
        if (c == null) {
            ack(jobKey, commandId, RESTORE, AckStatus.REJECTED, "no complete checkpoint '" + checkpointId + "'");
            return;
        }
        if (job.phase == JobPhase.FAILED) {
            ack(jobKey, commandId, RESTORE, AckStatus.REJECTED, notTraining(job));
            return;
        }
        ack(jobKey, commandId, RESTORE, AckStatus.ACCEPTED, null);
        job.restoreFrom = c;
        job.commands.add(new SimJob.PendingCommand(commandId, RESTORE, SimJob.CommandKind.RESTORE, Long.MAX_VALUE));
        if (job.phase == JobPhase.RUNNING) {
            ctx.trainer.restart(job, "restore from checkpoint " + c.id() + " (command " + commandId + ")");
        }
    }

    /** A new periodic checkpoint interval: takes effect from the next save. */
    void setInterval(String commandId, String jobKey, long seconds) {
        SimJob job = acceptable(commandId, SET_INTERVAL, jobKey);
        if (job == null) {
            return;
        }
        if (seconds < MIN_INTERVAL_S || seconds > MAX_INTERVAL_S) {
            ack(
                    jobKey,
                    commandId,
                    SET_INTERVAL,
                    AckStatus.REJECTED,
                    "interval must be between " + MIN_INTERVAL_S + " and " + MAX_INTERVAL_S + " seconds, got "
                            + seconds);
            return;
        }
        ack(jobKey, commandId, SET_INTERVAL, AckStatus.ACCEPTED, null);
        job.intervalSeconds = seconds;
        if (job.phase == JobPhase.RUNNING && job.inFlight == null) {
            ctx.checkpoints.armPeriodic(job);
        }
        ack(jobKey, commandId, SET_INTERVAL, AckStatus.DONE, "checkpoint interval now " + seconds + " s");
    }

    /** A command that only informs the trainers (a rescale notice): accepted and done at once. */
    void noted(String commandId, String command, String jobKey) {
        SimJob job = acceptable(commandId, command, jobKey);
        if (job == null) {
            return;
        }
        ack(jobKey, commandId, command, AckStatus.ACCEPTED, null);
        ack(jobKey, commandId, command, AckStatus.DONE, "noted");
    }

    /** Answers every waiting command of these kinds. */
    void resolve(SimJob job, Set<SimJob.CommandKind> kinds, AckStatus status, String message) {
        resolve(job, kinds, Long.MAX_VALUE, status, message);
    }

    /** Answers every waiting command of these kinds that a save of {@code step} satisfies. */
    void resolve(SimJob job, Set<SimJob.CommandKind> kinds, long step, AckStatus status, String message) {
        for (Iterator<SimJob.PendingCommand> it = job.commands.iterator(); it.hasNext(); ) {
            SimJob.PendingCommand c = it.next();
            if (kinds.contains(c.kind()) && c.minStep() <= step) {
                it.remove();
                ack(job.key, c.commandId(), c.command(), status, message);
            }
        }
    }

    private void expire(SimJob job, String commandId) {
        for (Iterator<SimJob.PendingCommand> it = job.commands.iterator(); it.hasNext(); ) {
            SimJob.PendingCommand c = it.next();
            if (c.commandId().equals(commandId) && ctx.now() >= c.deadline()) {
                it.remove();
                ack(job.key, commandId, c.command(), AckStatus.FAILED, "deadline passed before a checkpoint completed");
            }
        }
    }

    /** The job, or null after rejecting the command because the job is unknown or has too many waiting. */
    private SimJob acceptable(String commandId, String command, String jobKey) {
        SimJob job = jobs.get(jobKey);
        if (job == null || job.phase == JobPhase.NEW) {
            ack(jobKey, commandId, command, AckStatus.REJECTED, "no such job");
            return null;
        }
        if (job.commands.size() >= SimJob.MAX_PENDING_COMMANDS) {
            ack(
                    jobKey,
                    commandId,
                    command,
                    AckStatus.REJECTED,
                    "too many commands waiting (" + SimJob.MAX_PENDING_COMMANDS + ")");
            return null;
        }
        return job;
    }

    private static String notTraining(SimJob job) {
        return "job is " + phaseName(job) + ", not training";
    }

    private static String phaseName(SimJob job) {
        return job.phase.name().toLowerCase(Locale.ROOT);
    }

    private void ack(String jobKey, String commandId, String command, AckStatus status, String message) {
        ctx.emit(
                Emitter.TRAINER,
                EventType.TRAINER_COMMAND_ACK,
                jobKey,
                new TrainerData.CommandAck(commandId, command, status, message));
    }
}
