package io.lifeline.demo;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import java.util.EnumSet;

/**
 * Checkpoint saves: periodic ones at the job's interval, on-demand ones (commands, planned membership
 * changes). A save blocks the trainers for its blocking time; an async save then uploads in the background
 * and is complete (and restorable) only when the upload finishes. A save in flight when a node is lost
 * fails; some saves fail on their own at the scenario's failure rate.
 */
final class Checkpoints {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final SimContext ctx;

    Checkpoints(SimContext ctx) {
        this.ctx = ctx;
    }

    /** (Re)arms the periodic timer one interval from now; older timers become stale. */
    void armPeriodic(SimJob job) {
        long token = ++job.periodicToken;
        int e = job.epoch;
        ctx.agenda.after(job.intervalSeconds * 1000, () -> {
            if (job.epoch != e || job.periodicToken != token || job.phase != JobPhase.RUNNING) {
                return;
            }
            if (job.inFlight != null) {
                armPeriodic(job);
            } else {
                start(job, TrainerData.SaveReason.PERIODIC);
            }
        });
    }

    /**
     * Prepare-exit: save now and stay paused after the save until the job restarts (an eviction, a restart) or
     * until {@code releaseAt}, when training goes on if nothing came.
     */
    void prepareExit(SimJob job, long releaseAt) {
        job.holdAfterSave = true;
        int e = job.epoch;
        ctx.agenda.at(releaseAt, () -> {
            if (job.epoch == e && job.holdAfterSave) {
                job.holdAfterSave = false;
                if (job.phase == JobPhase.RUNNING
                        && job.blocked
                        && (job.inFlight == null
                                || ctx.now() - job.inFlight.startedAt() >= job.inFlight.blockingSeconds() * 1000)) {
                    endBlocking(job);
                }
            }
        });
        if (job.inFlight != null && !job.blocked) {
            job.setBlocked(true, ctx.now());
        }
        requestNow(job);
    }

    /** Starts a save now unless one is in flight (a command then waits for that one). */
    void requestNow(SimJob job) {
        if (job.inFlight == null) {
            start(job, job.holdAfterSave ? TrainerData.SaveReason.PREPARE_EXIT : TrainerData.SaveReason.COMMAND);
        }
    }

    /**
     * For a job pausing for a planned change: save what is unsaved, or wait for the save in flight, then tell
     * the trainer it may go on.
     */
    void secure(SimJob job) {
        if (job.inFlight != null) {
            return;
        }
        if (job.progressSinceNewest(ctx.now())) {
            // The trainers stop after this save and restart at the new size: a save to exit.
            start(job, TrainerData.SaveReason.PREPARE_EXIT);
        } else {
            ctx.trainer.changeReady(job);
        }
    }

    @SuppressWarnings("ReferenceEquality") // the same save still in flight, not an equal one
    private void start(SimJob job, TrainerData.SaveReason reason) {
        long now = ctx.now();
        Scenario.Checkpointing c = job.spec.checkpoint();
        double blocking = round3(ctx.rng.jitter(c.blockingSeconds(), 0.15));
        double duration = c.async() ? round3(Math.max(blocking + 1, ctx.rng.jitter(c.uploadSeconds(), 0.2))) : blocking;
        // A save asked for on durable storage goes there; the others where the job usually writes.
        boolean durable = job.wantsDurable() && c.durableUriPrefix() != null;
        SimJob.Save save = new SimJob.Save(
                String.format("%s-ckpt-%05d", job.spec.name(), ++job.saves),
                job.step(now),
                now,
                blocking,
                duration,
                c.async(),
                durable);
        job.inFlight = save;
        job.setBlocked(true, now);
        ctx.emit(
                Emitter.TRAINER,
                EventType.TRAINER_CHECKPOINT_STARTED,
                job.key,
                new TrainerData.CheckpointStarted(save.id(), save.step(), save.async(), reason));
        int e = job.epoch;
        ctx.agenda.after(Math.round(blocking * 1000), () -> {
            if (job.epoch == e) {
                endBlocking(job);
            }
        });
        ctx.agenda.after(Math.round(duration * 1000), () -> {
            if (job.epoch == e && job.inFlight == save) {
                complete(job, save);
            }
        });
    }

    private void endBlocking(SimJob job) {
        if (job.holdAfterSave && job.phase == JobPhase.RUNNING) {
            // Prepared to exit: the trainers stay paused after their save, so an eviction loses no work.
            return;
        }
        job.setBlocked(false, ctx.now());
        if (job.phase == JobPhase.RUNNING) {
            armPeriodic(job);
        }
    }

    private void complete(SimJob job, SimJob.Save save) {
        job.inFlight = null;
        Scenario.Checkpointing c = job.spec.checkpoint();
        if (ctx.rng.chance(c.failureRate())) {
            String error = c.uriPrefix().startsWith("gs://")
                    ? "google.api_core.exceptions.TooManyRequests: 429 PUT: rate limit exceeded"
                    : "botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject "
                            + "operation: Please reduce your request rate.";
            ctx.emit(
                    Emitter.TRAINER,
                    EventType.TRAINER_CHECKPOINT_FAILED,
                    job.key,
                    new TrainerData.CheckpointFailed(save.id(), save.step(), error));
            ctx.commands.resolve(
                    job,
                    EnumSet.of(SimJob.CommandKind.CHECKPOINT, SimJob.CommandKind.DURABLE_CHECKPOINT),
                    TrainerData.AckStatus.FAILED,
                    "checkpoint " + save.id() + " failed: " + error);
        } else {
            long bytes = Math.round(ctx.rng.jitter(c.sizeGiB(), 0.002) * GIB);
            String checksum = "sha256:" + ctx.rng.hex(64);
            String uri = String.format(
                    "%s/%s/step_%09d",
                    save.durable() ? c.durableUriPrefix() : c.uriPrefix(), job.spec.name(), save.step());
            int worldSize = Math.max(1, job.world.size() * job.spec.procsPerNode());
            ctx.emit(
                    Emitter.TRAINER,
                    EventType.TRAINER_CHECKPOINT_COMPLETED,
                    job.key,
                    new TrainerData.CheckpointCompleted(
                            save.id(),
                            save.step(),
                            bytes,
                            save.durationSeconds(),
                            save.blockingSeconds(),
                            uri,
                            checksum,
                            worldSize,
                            save.async(),
                            worldSize));
            job.completed(new SimJob.Checkpoint(save.id(), save.step()));
            ctx.agenda.after(
                    ctx.rng.millisBetween(2, 10),
                    () -> ctx.emit(
                            Emitter.TRAINER,
                            EventType.TRAINER_CHECKPOINT_VERIFIED,
                            job.key,
                            new TrainerData.CheckpointVerified(save.id(), true, checksum)));
            boolean durableEnough = save.durable() || c.durableUriPrefix() == null;
            ctx.commands.resolve(
                    job,
                    durableEnough
                            ? EnumSet.of(SimJob.CommandKind.CHECKPOINT, SimJob.CommandKind.DURABLE_CHECKPOINT)
                            : EnumSet.of(SimJob.CommandKind.CHECKPOINT),
                    save.step(),
                    TrainerData.AckStatus.DONE,
                    "checkpoint " + save.id() + " at step " + save.step() + " completed"
                            + (save.durable() ? " on durable storage" : ""));
            if ((job.wantsDurable() || job.wantsNewerThan(save.step()))
                    && (job.phase == JobPhase.RUNNING
                            || job.phase == JobPhase.RESCALING
                            || job.phase == JobPhase.SUSPENDING)) {
                // A local save finished while a durable one was asked for, or an older step than the trainers hold
                // at for prepare_exit: that save comes next.
                start(
                        job,
                        job.holdAfterSave || job.phase != JobPhase.RUNNING
                                ? TrainerData.SaveReason.PREPARE_EXIT
                                : TrainerData.SaveReason.COMMAND);
                return;
            }
        }
        if (job.phase == JobPhase.RESCALING || job.phase == JobPhase.SUSPENDING) {
            secure(job);
        }
    }

    /** The save in flight cannot complete (a node or rank it needed is gone). */
    void abortInFlight(SimJob job, String reason) {
        SimJob.Save save = job.inFlight;
        if (save != null) {
            job.inFlight = null;
            ctx.emit(
                    Emitter.TRAINER,
                    EventType.TRAINER_CHECKPOINT_FAILED,
                    job.key,
                    new TrainerData.CheckpointFailed(save.id(), save.step(), reason));
        }
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
