package io.lifeline.domain.job;

import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.checkpoint.CheckpointEntry;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import io.lifeline.domain.job.checkpoint.LossWindow;
import io.lifeline.domain.job.checkpoint.TrustRules;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/**
 * Checkpoint events: the ledger, the time the trainers were blocked saving, and the lost work of an open
 * incident re-measured when a checkpoint becomes good late.
 *
 * <p>Blocking time: a synchronous save seen from its start makes the job's activity CHECKPOINT until it
 * completes or fails (measured by the events' times; a save cut short by an interruption stays checkpoint
 * time), and so does an asynchronous one made to exit (prepare_exit, or a save the trainers say is for exiting: they
 * hold still while it uploads, and after it). Any
 * other asynchronous save blocks only for its reported blocking time, moved out of the productive time
 * since its start. A save whose start was not seen has its reported blocking time moved out of the
 * productive time that was not yet protected.
 */
final class CheckpointEvents {

    private final Interruptions interruptions;
    private final CheckpointStorage storage;
    private TrustRules trust = TrustRules.defaults();

    CheckpointEvents(Interruptions interruptions, CheckpointStorage storage) {
        this.interruptions = interruptions;
        this.storage = storage;
    }

    /** Sets how trust is judged (before or while events are applied). */
    void trust(TrustRules rules) {
        this.trust = rules;
    }

    /** A loss the trainers reported with their progress: the window a save's loss is judged against. */
    void loss(Job job, Double loss) {
        if (loss != null) {
            if (job.losses == null) {
                job.losses = new LossWindow();
            }
            job.losses.add(loss);
        }
    }

    /** An operator's mark of a checkpoint's trust. */
    void marked(Job job, Instant at, JobData.CheckpointTrustMarked d) {
        job.checkpoints.markTrust(d.checkpointId(), d.trusted(), d.reason(), d.by(), at);
    }

    void handle(Job job, Instant at, TrainerData data) {
        if (data instanceof TrainerData.CheckpointStarted d) {
            LossWindow.Verdict verdict = d.loss() == null
                    ? null
                    : (job.losses == null ? new LossWindow() : job.losses).judge(d.loss(), trust.suspectLossFactor());
            CheckpointEntry e = job.checkpoints.started(d, at, job.ledger.productive(), verdict);
            // A save for prepare_exit blocks the trainers until it completes, an asynchronous one too: they take no
            // step after the state it captures (they hold still until the restart), so its upload is no training.
            boolean exit = job.exitRequested || d.reason() != null && d.reason().forExit();
            if ((!d.async() || exit)
                    && job.state == JobState.RUNNING
                    && e.completedAt() == null
                    && e.status() == CheckpointStatus.STARTED) {
                job.syncSave = d.checkpointId();
            }
        } else if (data instanceof TrainerData.CheckpointCompleted d) {
            completed(job, at, d);
        } else if (data instanceof TrainerData.CheckpointFailed d) {
            job.checkpoints.failed(d, at);
            if (d.checkpointId().equals(job.syncSave)) {
                job.syncSave = null;
            }
        } else if (data instanceof TrainerData.CheckpointVerified d) {
            interruptions.reassess(job, job.checkpoints.verified(d, at));
        }
    }

    private void completed(Job job, Instant at, TrainerData.CheckpointCompleted d) {
        boolean seenStart = job.checkpoints.find(d.checkpointId()) != null
                && job.checkpoints.find(d.checkpointId()).mark() != null;
        // A local save lands on the nodes the job runs on now, unless the trainers name the copies themselves.
        CheckpointEntry e = job.checkpoints.completed(
                d,
                at,
                storage.classify(
                        d.uri(), d.durable(), d.replicas(), List.copyOf(new TreeSet<>(job.membership.nodes()))));
        long blocking = e.blockingMillis() == null ? 0 : e.blockingMillis();
        boolean wasSync = d.checkpointId().equals(job.syncSave);
        if (wasSync) {
            // The blocking time was measured by the activity itself, from start to completion.
            job.syncSave = null;
        } else if (!seenStart) {
            // Without its start, the blocking part is taken out of the productive time since the protected point.
            ProductiveMark now = job.ledger.productive();
            long unprotected = now.millis() - job.checkpoints.protectedMark(now).millis();
            long ms = Math.min(blocking, unprotected);
            job.ledger.move(Bucket.PRODUCTIVE, Bucket.CHECKPOINT, ms, ms * job.ledger.gpus());
            ProductiveMark after = job.ledger.productive();
            long sinceCapture = d.async() ? Math.max(0, Math.round(d.durationSeconds() * 1000.0) - blocking) : 0;
            long back = Math.min(
                    sinceCapture,
                    Math.max(
                            0,
                            after.millis()
                                    - job.checkpoints.protectedMark(after).millis()));
            job.checkpoints.capture(
                    e,
                    new ProductiveMark(
                            after.millis() - back, Math.max(0, after.gpuMillis() - back * job.ledger.gpus())));
        } else if (e.async() && blocking > 0) {
            // An async save blocked the trainers only for its staging part.
            long since = job.ledger.productive().millis() - e.mark().millis();
            long ms = Math.min(blocking, Math.max(0, since));
            job.ledger.move(Bucket.PRODUCTIVE, Bucket.CHECKPOINT, ms, ms * job.ledger.gpus());
        }
        interruptions.reassess(job, e);
        if (job.exitRequested || e.exitSave()) {
            // Saved to stop (prepare_exit, or the trainers said so): they hold still until they restart.
            job.exitRequested = false;
            job.holding = true;
            job.holdingStep = e.step();
            job.holdingSince = at;
        }
    }
}
