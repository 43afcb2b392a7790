package io.lifeline.domain.job;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData.Restored;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.job.checkpoint.CheckpointEntry;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.ProductiveMark;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import java.time.Duration;
import java.time.Instant;

/**
 * How signals of every layer become incidents of a job, and how an interruption is accounted.
 *
 * <p>Grouping: a job has at most one open incident. A warning (notice, not-ready node, GPU fault) opens
 * one without stopping training; a stop (worker failure, node termination, pod eviction, preemption,
 * unexplained restart or re-rendezvous) opens one or joins the open one. Every later signal joins the
 * open incident until it closes, so the notice, the termination, the worker failures, the re-rendezvous
 * and the restore of one interruption form one incident, while a failure after the job trained again
 * opens a new one.
 *
 * <p>Closing rule: a stopped incident closes at the first {@code trainer.progress} after a recovery
 * marker of that incident (agent restart, re-admission, re-rendezvous or restore). Progress without a
 * marker comes from ranks that have not yet noticed the failure and does not close it, unless its step
 * went back to or below the step at the stop (the run restarted without telling us), or it was made more than
 * {@link #STRAGGLER_WINDOW} after the stop (the trainers train: the stop was reported after its recovery). A warning that has
 * not stopped training closes as averted once its deadline plus a grace (or a window, without deadline)
 * has passed (checked when the job's next event or signal is applied), or when the not-ready node that
 * raised it is ready again.
 *
 * <p>Lost rework: at the stop, the productive time since the newest good checkpoint of the current run
 * (or since the run's restore point) is reclassified as lost rework. The restore names the checkpoint
 * actually used; the lost work is then re-measured from it (more when an older checkpoint was used, less
 * when a newer one completed late).
 */
final class Interruptions {

    /** How long after a stop progress past the stop's step may still come from ranks that missed it. */
    static final Duration STRAGGLER_WINDOW = Duration.ofMinutes(1);

    private final JobsConfig config;
    private final NodeDirectory nodes;

    Interruptions(JobsConfig config, NodeDirectory nodes) {
        this.config = config;
        this.nodes = nodes;
    }

    /** Closes a warning-only incident whose window has passed without a stop (averted). */
    void expireWarnings(Job job, long eff) {
        Incident open = job.incidents.open();
        if (open != null && !open.stopped() && eff > open.warningExpiresMs()) {
            Instant at = Instant.ofEpochMilli(open.warningExpiresMs());
            open.phase(IncidentPhase.AVERTED, at, null, "no interruption followed the warning");
            close(job, at, IncidentOutcome.AVERTED);
        }
    }

    /** A warning about a node of the job: opens or joins an incident without stopping training. */
    void warn(
            Job job,
            long eff,
            Instant at,
            IncidentCause cause,
            String node,
            String detail,
            NoticeKind kind,
            Instant deadline) {
        if (job.state.isTerminal()) {
            return;
        }
        Incident inc = openOrJoin(job, at, cause, detail, node);
        inc.phase(IncidentPhase.WARNED, at, node, detail);
        if (kind != null) {
            inc.notice(kind, at, deadline);
        }
        if (!inc.stopped()) {
            inc.warnUntil(
                    deadline != null
                            ? Math.max(deadline.toEpochMilli(), eff)
                                    + config.noticeGrace().toMillis()
                            : eff + config.warningWindow().toMillis());
        }
    }

    /**
     * Training stopped: opens an incident or joins the open one, accounts the stop once, and moves the
     * job to {@code target} (a waiting job stays waiting when asked for RECOVERING).
     *
     * @return the incident, or null when the job has ended (the refused transition is recorded)
     */
    Incident interrupt(
            Job job, Instant at, IncidentCause cause, String node, String detail, JobState target, String trigger) {
        return interrupt(job, at, cause, node, detail, target, trigger, false);
    }

    /**
     * Like {@link #interrupt(Job, Instant, IncidentCause, String, String, JobState, String)}, for a stop known only
     * after the fact ({@code afterTheFact}: a restart, a new round or a restore that no failure announced): training
     * stopped at its last sign, not when the sign of its recovery came.
     */
    Incident interrupt(
            Job job,
            Instant at,
            IncidentCause cause,
            String node,
            String detail,
            JobState target,
            String trigger,
            boolean afterTheFact) {
        if (job.state.isTerminal()) {
            JobStateMachine.move(job, target, at, trigger);
            return null;
        }
        Incident before = job.incidents.open();
        boolean wasStopped = before != null && before.stopped();
        IncidentCause causeBefore = before == null ? null : before.cause();
        Incident inc = openOrJoin(job, at, cause, detail, node);
        if (wasStopped) {
            job.incidents.recount(causeBefore, inc.cause());
        } else {
            stop(job, inc, at, node, afterTheFact);
        }
        inc.phase(IncidentPhase.STOPPED, at, node, detail);
        JobState to = target == JobState.RECOVERING && job.state.isWaiting() ? job.state : target;
        JobStateMachine.move(job, to, at, trigger);
        return inc;
    }

    private void stop(Job job, Incident inc, Instant at, String node, boolean afterTheFact) {
        Instant trainingStopped = heldSince(job, inc, at);
        if (afterTheFact && !trainingStopped.isBefore(at)) {
            unseenStop(job, inc);
        }
        ProductiveMark now = job.ledger.productive();
        ProductiveMark ref = job.checkpoints.protectedMark(now);
        CheckpointEntry protecting = job.checkpoints.protectingCheckpoint();
        // Saved before the exit: a save begun after the warning, or (when the stop came unannounced, a SIGTERM) an
        // exit save the trainers made for this stop, which protects the run.
        boolean savedFirst = protecting != null
                && (protecting.startedAt() != null && !protecting.startedAt().isBefore(inc.openedAt())
                        || protecting.exitSave());
        inc.stop(
                at,
                node,
                now,
                job.lastStep,
                job.ledger.gpus(),
                job.membership.worldSize(),
                savedFirst,
                job.checkpoints.epoch());
        if (trainingStopped.isBefore(at)) {
            // The hold's time, a pause of the job while it ran, is this incident's downtime: nothing trained since.
            long heldMs = Math.max(0, job.ledger.clockMs() - trainingStopped.toEpochMilli());
            inc.accrueMoved(Bucket.RESCALE, new ProductiveMark(heldMs, heldMs * job.ledger.gpus()));
        }
        CheckpointEntry newest = job.checkpoints.newestGood();
        inc.attemptEnded(newest == null ? null : newest.step(), job.membership.activeNodes());
        ProductiveMark lost = inc.lostFor(ref);
        ProductiveMark moved = job.ledger.move(Bucket.PRODUCTIVE, Bucket.LOST_REWORK, lost.millis(), lost.gpuMillis());
        inc.lost(moved, protecting != null ? protecting.id() : job.checkpoints.lineageParent());
        // The run restarts from the protected point: a new lineage epoch begins there.
        job.checkpoints.beginEpoch(job.ledger.productive());
        job.syncSave = null;
        job.restarts++;
        job.incidents.countInterruption();
        String pool =
                node != null ? Job.poolOf(nodes, node) : job.primaryPool != null ? job.primaryPool : Job.UNKNOWN_POOL;
        String capacity = node != null
                ? Job.capacityOf(nodes, node)
                : job.primaryCapacity != null ? job.primaryCapacity : Job.UNKNOWN_POOL;
        inc.pool(pool);
        job.countInterruption(pool, capacity);
    }

    /**
     * A stop seen only after the fact (no failure said so: a node gone without a word, a whole job killed and launched
     * again): the time since the last sign of training (the newest progress) went as training to the job, and would
     * count as work lost; it was this incident's downtime. Never more than the training not yet protected by a
     * checkpoint.
     */
    private static void unseenStop(Job job, Incident inc) {
        if (job.state != JobState.RUNNING || job.syncSave != null || job.ledger.activity() != Bucket.PRODUCTIVE) {
            return;
        }
        // The newest progress, not the ranks' heartbeats: those are not kept across a restart of Lifeline, and the
        // accounts must read the same whether it restarted or not.
        if (job.lastProgressAt == null) {
            return;
        }
        long lastSign = job.lastProgressAt.toEpochMilli();
        ProductiveMark now = job.ledger.productive();
        long unprotected = now.millis() - job.checkpoints.protectedMark(now).millis();
        long unseen = Math.min(Math.max(0, job.ledger.clockMs() - lastSign), Math.max(0, unprotected));
        if (unseen > 0) {
            ProductiveMark moved = job.ledger.move(
                    Bucket.PRODUCTIVE, Bucket.RECOVERY_DETECTION, unseen, unseen * (long) job.ledger.gpus());
            inc.accrueMoved(Bucket.RECOVERY_DETECTION, moved);
        }
    }

    /**
     * When training stopped, for a stop signalled at {@code at}: where the trainers began to hold after their exit
     * save, when they hold, else {@code at}. Trainers that hold take no step, and the signal of the stop may come long
     * after (a node killed at its notice's deadline, the survivors' restart seen only at their next rendezvous):
     * measured from the signal, the downtime would leave out the hold and the time the stop went unseen. The stop
     * itself keeps the signal's time (the node went then). A hold that began before the incident opened (an exit
     * save for a signal that opened none) counts from the opening.
     */
    private static Instant heldSince(Job job, Incident inc, Instant at) {
        if (!job.holding || job.holdingSince == null || !job.holdingSince.isBefore(at)) {
            return at;
        }
        return job.holdingSince.isBefore(inc.openedAt()) ? inc.openedAt() : job.holdingSince;
    }

    private Incident openOrJoin(Job job, Instant at, IncidentCause cause, String detail, String node) {
        Incident inc = job.incidents.open();
        if (inc == null) {
            inc = job.incidents.openNew(at, cause, detail, node);
            job.timeline(
                    at,
                    TimelineEntry.Kind.INCIDENT_OPENED,
                    cause.name(),
                    "incident " + inc.id() + " opened: " + cause + (detail == null ? "" : " (" + detail + ")"),
                    inc.id());
        } else {
            inc.cause(cause, detail);
            inc.addNode(node);
        }
        return inc;
    }

    /** A sign of recovery in the open, stopped incident: stamps it and moves the recovery phase on. */
    void marker(Job job, Instant at, IncidentPhase phase, Bucket stage, String detail) {
        Incident inc = job.incidents.open();
        if (inc != null && inc.stopped()) {
            inc.recoveryMarker();
            inc.stage(stage);
            inc.phase(phase, at, null, detail);
        }
    }

    /**
     * Whether a progress at {@code step}, made at {@code at}, comes from ranks that have not noticed the stop yet: past
     * the step at the stop, with no sign of recovery since, and made within {@link #STRAGGLER_WINDOW} of the stop.
     * Ranks that missed a failure block in their next collective within a step or two; steps still taken a minute
     * after the stop mean the trainers train, whatever the order in which the stop and the signs of their recovery
     * arrived (a stop reported late, after the rounds and restores that ended it, must not hold the job recovering).
     */
    boolean isStraggler(Job job, long step, Instant at) {
        Incident inc = job.incidents.open();
        return inc != null
                && inc.stopped()
                && !inc.hasRecoveryMarker()
                // A hang stops no rank: progress past its step is the hang ending, not a rank that missed it.
                && inc.cause() != IncidentCause.HANG
                && !(inc.stopStep() >= 0 && step <= inc.stopStep())
                && (inc.stoppedAt() == null || !at.isAfter(inc.stoppedAt().plus(STRAGGLER_WINDOW)));
    }

    /** The first progress of a recovering job: back to RUNNING, and the incident closes. */
    void resume(Job job, Instant at, long step, String trigger) {
        Incident open = job.incidents.open();
        if (step == 0 && open != null && open.stopped() && open.stopStep() > 0) {
            // A restarted worker reports step 0 before it has restored anything: the run resumes at the step it
            // restores to (its trainer.restored, then progress from there), or at step 1 when it starts afresh.
            return;
        }
        if (isStraggler(job, step, at) || !JobStateMachine.move(job, JobState.RUNNING, at, trigger)) {
            return;
        }
        Incident inc = job.incidents.open();
        if (inc != null && inc.stopped()) {
            if (inc.cause() == IncidentCause.HANG
                    && !inc.hasRecoveryMarker()
                    && inc.stopStep() >= 0
                    && step > inc.stopStep()) {
                // The hang ended without a restart: the work since the checkpoint survived after all.
                adjustLost(job, inc, inc.stopMark(), null);
                inc.phase(IncidentPhase.RESUMED, at, null, "step " + step + ": training moved again without a restart");
            } else {
                inc.phase(IncidentPhase.RESUMED, at, null, "step " + step);
            }
            close(job, at, IncidentOutcome.RECOVERED);
        }
    }

    /**
     * Lifeline (or another detector) suspects a training job hung since {@code d.since()}: that time was not
     * productive, so it moves to {@link Bucket#HANG}, and the job is interrupted with cause {@link IncidentCause#HANG}:
     * the work since its newest checkpoint is lost unless training moves again without a restart. A job that is not
     * training (already recovering, waiting, ended) or already in a stopped incident is left as it is.
     */
    void hang(Job job, Instant at, io.lifeline.domain.event.JobData.HangSuspected d, String trigger) {
        Incident open = job.incidents.open();
        if (job.state != JobState.RUNNING || open != null && open.stopped()) {
            return;
        }
        long hungMs = Math.max(0, job.ledger.clockMs() - Math.max(d.since().toEpochMilli(), job.ledger.startMs()));
        ProductiveMark moved =
                job.ledger.move(Bucket.PRODUCTIVE, Bucket.HANG, hungMs, hungMs * (long) job.ledger.gpus());
        String node = d.suspects().isEmpty() ? null : d.suspects().get(0).node();
        String detail = d.kind() + " hang: no progress for " + Math.round(d.stalledSeconds()) + " s (threshold "
                + Math.round(d.thresholdSeconds()) + " s)"
                + (d.suspects().isEmpty()
                        ? ""
                        : ", suspect rank " + d.suspects().get(0).rank() + (node == null ? "" : " on " + node) + ": "
                                + d.suspects().get(0).why());
        Incident inc = interrupt(job, at, IncidentCause.HANG, node, detail, JobState.RECOVERING, trigger);
        if (inc == null) {
            return;
        }
        for (io.lifeline.domain.event.JobData.HangSuspect s : d.suspects()) {
            inc.addNode(s.node());
        }
        inc.accrueMoved(Bucket.HANG, moved);
        inc.hung();
        inc.phase(IncidentPhase.HUNG, at, node, detail);
    }

    Incident close(Job job, Instant at, IncidentOutcome how) {
        Incident done =
                job.incidents.close(at, how, how == IncidentOutcome.RECOVERED ? job.membership.worldSize() : null);
        job.timeline(
                at,
                TimelineEntry.Kind.INCIDENT_CLOSED,
                how.name(),
                "incident " + done.id() + " closed: " + how,
                done.id());
        return done;
    }

    /** A run resumed from a checkpoint: lineage, and the lost work re-measured from the checkpoint used. */
    void restore(Job job, Instant at, Restored d) {
        String trigger = "trainer.restored";
        if (job.state == JobState.RESCALING) {
            ProductiveMark ref = refFor(d, job.checkpoints.find(d.checkpointId()));
            if (ref != null && job.ledger.productive().millis() > ref.millis()) {
                rescaleBecomesIncident(job, at, trigger);
            }
        } else if (job.state == JobState.RUNNING) {
            interrupt(
                    job,
                    at,
                    IncidentCause.UNKNOWN,
                    null,
                    "restored without a reported failure",
                    JobState.RECOVERING,
                    trigger,
                    true);
        } else if (job.state.isWaiting()) {
            JobStateMachine.move(job, JobState.RECOVERING, at, trigger);
        }
        Incident inc = job.incidents.open();
        boolean inRecovery = inc != null && inc.stopped();
        CheckpointEntry e = job.checkpoints.restored(d, at, inRecovery ? inc.id() : null);
        if (inRecovery) {
            ProductiveMark ref = refFor(d, e);
            if (ref != null) {
                adjustLost(job, inc, ref, e == null ? null : e.id());
            }
            inc.restored(d.checkpointId(), d.step());
            marker(job, at, IncidentPhase.RESTORED, Bucket.RECOVERY_LOAD, "checkpoint " + d.checkpointId());
        }
        job.checkpoints.beginEpoch(job.ledger.productive());
    }

    /** A rescale that restarted from a checkpoint lost work: it was an incident, and its pause was recovery. */
    private void rescaleBecomesIncident(Job job, Instant at, String trigger) {
        Instant began = job.rescaleStartedAt != null ? job.rescaleStartedAt : at;
        Incident inc = interrupt(
                job,
                began,
                IncidentCause.RESCALE,
                null,
                "rescale restarted from a checkpoint",
                JobState.RECOVERING,
                trigger);
        ProductiveMark moved =
                job.ledger.move(Bucket.RESCALE, Bucket.RECOVERY_RESTART, job.rescaleMillis, job.rescaleGpuMillis);
        inc.accrueMoved(Bucket.RECOVERY_RESTART, moved);
        inc.recoveryMarker();
        inc.stage(Bucket.RECOVERY_RESTART);
    }

    /**
     * A checkpoint became good while a stopped incident waits for its restore: when it captured more of
     * the interrupted run than the checkpoint assumed so far, less work was lost.
     */
    void reassess(Job job, CheckpointEntry e) {
        Incident inc = job.incidents.open();
        if (inc == null
                || !inc.stopped()
                || inc.restored()
                || e.mark() == null
                || !job.checkpoints.isGood(e)
                || e.epoch() != inc.epochAtStop()) {
            return;
        }
        long currentRef = inc.stopMark().millis() - inc.lost().millis();
        if (e.mark().millis() > currentRef
                && e.mark().millis() <= inc.stopMark().millis()) {
            adjustLost(job, inc, e.mark(), e.id());
            job.checkpoints.rebaseEpoch(job.ledger.productive());
            if (e.startedAt() != null
                    && !e.startedAt().isBefore(inc.openedAt())
                    && e.completedAt() != null
                    && !e.completedAt().isAfter(inc.stoppedAt())) {
                inc.checkpointBeforeExit(true);
            }
        }
    }

    private void adjustLost(Job job, Incident inc, ProductiveMark ref, String checkpointId) {
        ProductiveMark target = inc.lostFor(ref);
        ProductiveMark cur = inc.lost();
        long dm = target.millis() - cur.millis();
        long dg = target.gpuMillis() - cur.gpuMillis();
        ProductiveMark up = job.ledger.move(Bucket.PRODUCTIVE, Bucket.LOST_REWORK, Math.max(0, dm), Math.max(0, dg));
        ProductiveMark down =
                job.ledger.move(Bucket.LOST_REWORK, Bucket.PRODUCTIVE, Math.max(0, -dm), Math.max(0, -dg));
        inc.lost(
                new ProductiveMark(
                        cur.millis() + up.millis() - down.millis(),
                        cur.gpuMillis() + up.gpuMillis() - down.gpuMillis()),
                checkpointId);
    }

    /** The productive mark a restore goes back to: zero from scratch, the checkpoint's mark, or null (unknown). */
    private static ProductiveMark refFor(Restored d, CheckpointEntry e) {
        if ((d.checkpointId() == null || d.checkpointId().isEmpty()) && d.step() == 0) {
            return ProductiveMark.ZERO;
        }
        return e == null ? null : e.mark();
    }
}
