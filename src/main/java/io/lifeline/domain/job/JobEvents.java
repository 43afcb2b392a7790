package io.lifeline.domain.job;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.checkpoint.CheckpointEntry;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.StopRequest;
import io.lifeline.domain.job.incident.WorkerFailure;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import io.lifeline.domain.support.WireEnum;
import java.time.Instant;
import java.util.Locale;

/**
 * What each job, scheduler and trainer event, and each node signal, does to a job. Events are applied
 * after the job's accounting clock was advanced to them; {@link Job#settle()} runs afterwards.
 */
final class JobEvents {

    private final Interruptions interruptions;
    private final CheckpointEvents checkpoints;

    JobEvents(Interruptions interruptions, io.lifeline.domain.job.checkpoint.CheckpointStorage storage) {
        this.interruptions = interruptions;
        this.checkpoints = new CheckpointEvents(interruptions, storage);
    }

    void handle(Job job, Event e) {
        Instant at = e.time();
        String type = e.type().wireName();
        if (e.type() != EventType.TRAINER_PROGRESS && e.type() != EventType.TRAINER_STATUS) {
            job.timeline(at, TimelineEntry.Kind.EVENT, type, Summaries.of(e));
        }
        if (e.data() instanceof JobData d) {
            onJob(job, at, d, type);
        } else if (e.data() instanceof SchedulerData d) {
            onScheduler(job, at, d, type);
        } else if (e.data() instanceof TrainerData d) {
            onTrainer(job, at, d, type);
        }
    }

    private void onJob(Job job, Instant at, JobData data, String type) {
        if (data instanceof JobData.Submitted d) {
            job.owner = d.owner();
            job.priorityClass = d.priorityClass();
            job.elastic = d.elastic();
            job.gpusPerNode = d.gpusPerNode();
            job.checkpointIntervalSeconds = d.checkpointIntervalSeconds();
            job.healsItself = d.healsItself();
            if (at.isBefore(job.submittedAt)) {
                job.submittedAt = at;
                job.ledger.extendStartTo(at.toEpochMilli());
            }
        } else if (data instanceof JobData.Updated d) {
            job.priorityClass = d.priorityClass() != null ? d.priorityClass() : job.priorityClass;
            job.elastic = d.elastic() != null ? d.elastic() : job.elastic;
            job.gpusPerNode = d.gpusPerNode() != null ? d.gpusPerNode() : job.gpusPerNode;
            job.checkpointIntervalSeconds = d.checkpointIntervalSeconds() != null
                    ? d.checkpointIntervalSeconds()
                    : job.checkpointIntervalSeconds;
        } else if (data instanceof JobData.HangSuspected d) {
            interruptions.hang(job, at, d, type);
        } else if (data instanceof JobData.Restarted d) {
            ControllerRestarts.apply(interruptions, job, at, d, type);
        } else if (data instanceof JobData.RecoveryAdvised d) {
            job.recovery.advised(new Advice(
                    job.name,
                    d.incident(),
                    d.rung(),
                    WireEnum.parse(Remedy.class, d.remedy()).orElseThrow(),
                    d.node(),
                    d.rule(),
                    d.rulesVersion(),
                    d.evidence(),
                    d.expected(),
                    at,
                    d.deadline(),
                    d.mode(),
                    Verdict.PENDING,
                    null,
                    null));
        } else if (data instanceof JobData.RecoveryChecked d) {
            job.recovery.checked(
                    d.incident(),
                    d.rung(),
                    WireEnum.parse(Verdict.class, d.verdict()).orElseThrow(),
                    d.reason(),
                    at);
        } else if (data instanceof JobData.CheckpointTrustMarked d) {
            checkpoints.marked(job, at, d);
        } else if (data instanceof JobData.Finished d) {
            JobState to = d.outcome() == JobData.Outcome.SUCCEEDED
                    ? JobState.SUCCEEDED
                    : d.outcome() == JobData.Outcome.FAILED ? JobState.FAILED : JobState.CANCELLED;
            Incident open = job.incidents.open();
            if (to.canFollow(job.state) && open != null) {
                open.workersStopped(at, type);
                open.phase(IncidentPhase.ENDED, at, null, d.outcome().wireName());
                interruptions.close(job, at, open.stopped() ? IncidentOutcome.JOB_ENDED : IncidentOutcome.AVERTED);
            }
            if (JobStateMachine.move(job, to, at, type)) {
                job.finishedAt = at;
                job.finishReason = d.reason();
                job.membership.release(at);
            }
        }
    }

    private void onScheduler(Job job, Instant at, SchedulerData data, String type) {
        if (data instanceof SchedulerData.Admitted) {
            job.admitted = true;
            if (job.state.isWaiting()) {
                JobStateMachine.move(job, JobState.RECOVERING, at, type);
                interruptions.marker(job, at, IncidentPhase.ADMITTED, Bucket.RECOVERY_RESTART, "admitted again");
            }
        } else if (data instanceof SchedulerData.Preempted d) {
            String detail = d.preemptor() == null ? d.reason() : "by " + d.preemptor() + ": " + d.reason();
            leaveNodes(
                    job,
                    at,
                    IncidentCause.PREEMPTION,
                    detail,
                    JobState.PREEMPTED,
                    type,
                    StopRequest.WORKLOAD_PREEMPTION);
        } else if (data instanceof SchedulerData.Evicted d) {
            String reason = d.reason() == null ? "" : d.reason().toLowerCase(Locale.ROOT);
            IncidentCause cause = reason.contains("preempt")
                    ? IncidentCause.PREEMPTION
                    : reason.contains("node") ? IncidentCause.NODE_FAILURE : IncidentCause.MANUAL;
            leaveNodes(
                    job,
                    at,
                    cause,
                    d.reason(),
                    cause == IncidentCause.PREEMPTION ? JobState.PREEMPTED : JobState.SUSPENDED,
                    type,
                    cause == IncidentCause.PREEMPTION
                            ? StopRequest.WORKLOAD_PREEMPTION
                            : StopRequest.WORKLOAD_EVICTION);
        } else if (data instanceof SchedulerData.Requeued d) {
            if (job.state.isActive()) {
                leaveNodes(
                        job,
                        at,
                        IncidentCause.MANUAL,
                        d.reason(),
                        JobState.SUSPENDED,
                        type,
                        StopRequest.WORKLOAD_REQUEUE);
            }
        } else if (data instanceof SchedulerData.PodEvicted d) {
            Incident inc = interruptions.interrupt(
                    job,
                    at,
                    IncidentCause.MANUAL,
                    d.node(),
                    "pod " + d.pod() + " evicted: " + d.reason(),
                    JobState.RECOVERING,
                    type);
            if (inc != null) {
                inc.stopRequested(StopRequest.POD_EVICTION, at);
            }
            if (d.node() != null) {
                job.membership.markLost(d.node(), at);
            }
        }
    }

    /** The scheduler took the job off its nodes: a stop (its workers are told to end), then waiting without GPUs. */
    private void leaveNodes(
            Job job,
            Instant at,
            IncidentCause cause,
            String detail,
            JobState target,
            String type,
            StopRequest request) {
        Incident inc = interruptions.interrupt(job, at, cause, null, detail, target, type);
        if (inc != null) {
            inc.stopRequested(request, at);
        }
        if (inc != null && job.state == target) {
            inc.phase(IncidentPhase.WAITING, at, null, target.name().toLowerCase(Locale.ROOT));
            job.admitted = false;
            job.membership.release(at);
        }
    }

    private void onTrainer(Job job, Instant at, TrainerData data, String type) {
        if (data instanceof TrainerData.Progress d) {
            // The trainers' own reports are the job's progress from the first one on: a controller's coarser status
            // (which may have moved the job before the agent started) must not hold them back by its clock.
            boolean takeover = !job.agentProgress;
            job.agentProgress = true;
            progress(job, at, d.step(), d.samplesPerSecond(), d.tokensPerSecond(), d.loss(), takeover, type);
        } else if (data instanceof TrainerData.StatusReport d) {
            status(job, d, type);
        } else if (data instanceof TrainerData.Rendezvous d) {
            rendezvous(job, at, d, type);
        } else if (data instanceof TrainerData.WorkerFailed d) {
            if (reportedAfterTheGroupReformed(job, at)) {
                return;
            }
            String detail = "rank " + d.rank() + (d.exitCode() == null ? "" : " exit code " + d.exitCode())
                    + (d.error() == null ? "" : ": " + d.error());
            Incident inc = interruptions.interrupt(
                    job, at, IncidentCause.SOFTWARE_ERROR, d.node(), detail, JobState.RECOVERING, type);
            if (inc != null) {
                // The rank's own last step when it said (progress is sampled: the job's lags behind it).
                Long step = d.step() != null ? d.step() : job.lastStep < 0 ? null : Long.valueOf(job.lastStep);
                inc.workerFailed(WorkerFailure.of(at, d.rank(), d.node(), d.exitCode(), d.error(), step));
                inc.workersStopped(at, type);
            }
        } else if (data instanceof TrainerData.Restarted d) {
            job.agentRestarts = Math.max(job.agentRestarts, d.restartCount());
            if (reportedAfterTheGroupReformed(job, at)) {
                return;
            }
            Incident open = job.incidents.open();
            if (open == null || !open.stopped()) {
                interruptions.interrupt(
                        job,
                        at,
                        IncidentCause.SOFTWARE_ERROR,
                        null,
                        "agent restarted workers" + (d.reason() == null ? "" : ": " + d.reason()),
                        JobState.RECOVERING,
                        type,
                        true);
            }
            if (job.state.isWaiting()) {
                JobStateMachine.move(job, JobState.RECOVERING, at, type);
            }
            interruptions.marker(
                    job, at, IncidentPhase.RESTARTED, Bucket.RECOVERY_RESTART, "restart " + d.restartCount());
            workersStopped(job, at, type);
        } else if (data instanceof TrainerData.Restored d) {
            interruptions.restore(job, at, d);
        } else if (data instanceof TrainerData.Stacks d) {
            stacks(job, at, d);
        } else if (data instanceof TrainerData.CommandAck a) {
            job.commandAcks.record(a, at);
            if ("prepare_exit".equals(a.command())
                    && (a.status() == TrainerData.AckStatus.ACCEPTED || a.status() == TrainerData.AckStatus.DONE)) {
                job.exitRequested = true;
            }
        } else {
            if (data instanceof TrainerData.CheckpointCompleted d && !d.async()) {
                hangs(job).saved(d.durationSeconds());
            }
            checkpoints.handle(job, at, data);
        }
    }

    /**
     * Keeps a rank's stacks with the others of the same request; the first of a request, during a hang, is attached to
     * the open incident (its phase names the request, whose capture is kept among the job's newest).
     */
    private static void stacks(Job job, Instant at, TrainerData.Stacks d) {
        if (job.stacks == null) {
            job.stacks = new java.util.ArrayDeque<>();
        }
        io.lifeline.domain.job.hang.StackCapture capture = null;
        for (io.lifeline.domain.job.hang.StackCapture c : job.stacks) {
            if (d.requestId().equals(c.requestId())) {
                capture = c;
            }
        }
        if (capture == null) {
            capture = new io.lifeline.domain.job.hang.StackCapture();
            job.stacks.addLast(capture);
            if (job.stacks.size() > Job.STACK_CAPTURES_KEPT) {
                job.stacks.removeFirst();
            }
            Incident open = job.incidents.open();
            if (open != null && open.cause() == IncidentCause.HANG) {
                open.phase(IncidentPhase.CAPTURED, at, d.node(), "stacks " + d.requestId());
            }
        }
        capture.add(at, d);
    }

    /** Sets how checkpoint trust is judged. */
    void trust(io.lifeline.domain.job.checkpoint.TrustRules rules) {
        checkpoints.trust(rules);
    }

    static io.lifeline.domain.job.hang.HangWatch hangs(Job job) {
        if (job.hangs == null) {
            job.hangs = new io.lifeline.domain.job.hang.HangWatch();
        }
        return job.hangs;
    }

    /**
     * A controller's status report (a TrainJob's {@code trainerStatus}): the job's progress only while the trainers
     * report none of their own, and only when newer than the last one (its time is the trainers' report time, so a
     * repeat, a resync or a re-list moves nothing). A report without a step keeps the job's step as it was.
     */
    private void status(Job job, TrainerData.StatusReport d, String type) {
        if (job.statusReports == null) {
            job.statusReports = new io.lifeline.domain.job.hang.StatusWatch();
        }
        if (!job.statusReports.report(d) || job.agentProgress) {
            return;
        }
        long step = d.step() != null ? d.step() : job.lastStep;
        progress(job, d.reportedAt(), step, null, null, d.loss(), false, type);
    }

    private void progress(
            Job job,
            Instant at,
            long step,
            Double samplesPerSecond,
            Double tokensPerSecond,
            Double loss,
            boolean takeover,
            String type) {
        checkpoints.loss(job, loss);
        // Trainers holding still after a prepare_exit save take no step: progress past the saved step means they are
        // training again (a report of the saved step itself, sent late or while holding, does not).
        if (job.holding && step > job.holdingStep) {
            job.holding = false;
        }
        if (takeover || job.lastProgressAt == null || !at.isBefore(job.lastProgressAt)) {
            job.lastProgressAt = at;
            job.lastStep = step;
            job.samplesPerSecond = samplesPerSecond;
            job.tokensPerSecond = tokensPerSecond;
        }
        if (job.firstProgressAt == null || at.isBefore(job.firstProgressAt)) {
            job.firstProgressAt = at;
        }
        if (job.syncSave != null) {
            // Trainers report no progress while blocked in a synchronous save: progress after its start means the
            // save is over, even if its completion is late or was lost. Trainers holding for prepare_exit while their
            // save uploads may still report the step it saved: only a later step ends that.
            CheckpointEntry save = job.checkpoints.find(job.syncSave);
            if (save == null
                    || save.startedAt() == null
                    || at.isAfter(save.startedAt()) && (!save.async() || step > save.step())) {
                job.syncSave = null;
            }
        }
        switch (job.state) {
            case PENDING:
                JobStateMachine.move(job, JobState.RUNNING, at, type);
                break;
            case RECOVERING:
                interruptions.resume(job, at, step, type);
                break;
            case RESCALING:
                if (JobStateMachine.move(job, JobState.RUNNING, at, type)) {
                    job.rescaleStartedAt = null;
                }
                break;
            case PREEMPTED:
            case SUSPENDED:
                // Progress while off the nodes: either stragglers from before the stop, or a restart we did not see.
                if (!interruptions.isStraggler(job, step, at)) {
                    JobStateMachine.move(job, JobState.RECOVERING, at, type);
                    interruptions.resume(job, at, step, type);
                }
                break;
            case RUNNING:
                break;
            default:
                JobStateMachine.move(job, JobState.RUNNING, at, type);
        }
    }

    private void rendezvous(Job job, Instant at, TrainerData.Rendezvous d, String type) {
        RendezvousRound round =
                new RendezvousRound(d.runId(), d.round(), d.worldSize(), at, d.participants(), d.endpointNode());
        boolean late = job.membership.current() != null
                && at.isBefore(job.membership.current().time());
        if (late || job.state.isTerminal()) {
            job.holding = false;
            job.membership.record(round);
            return;
        }
        boolean same = job.membership.sameAsCurrent(round);
        if (job.state == JobState.RUNNING) {
            Incident warned = job.incidents.open();
            if (warned != null && !warned.stopped() && anyAbsent(warned, round)) {
                interruptions.interrupt(
                        job, at, warned.cause(), null, "warned node left the group", JobState.RECOVERING, type, true);
            } else if (same) {
                interruptions.interrupt(
                        job,
                        at,
                        IncidentCause.UNKNOWN,
                        null,
                        "re-rendezvous without a reported failure",
                        JobState.RECOVERING,
                        type,
                        true);
            }
        }
        // A new group ends a hold; only after the stop it may be, which starts where the hold began.
        job.holding = false;
        job.membership.record(round);
        if (!same && job.stragglers != null) {
            job.stragglers.reset(); // ranks are dealt again
        }
        job.lastRoundGpus = job.membership.gpus(job.gpusPerNode);
        if (job.state == JobState.PENDING) {
            job.admitted = true;
        } else if (job.state == JobState.RUNNING) {
            if (JobStateMachine.move(job, JobState.RESCALING, at, type)) {
                job.rescaleStartedAt = at;
                job.rescaleMillis = 0;
                job.rescaleGpuMillis = 0;
            }
        } else if (job.state.isWaiting()) {
            job.admitted = true;
            JobStateMachine.move(job, JobState.RECOVERING, at, type);
        }
        interruptions.marker(
                job,
                at,
                IncidentPhase.REJOINED,
                Bucket.RECOVERY_LOAD,
                "world size " + d.worldSize() + " on " + d.participants().size() + " nodes");
        workersStopped(job, at, type);
    }

    /**
     * Whether a failure or restart happened before the job's current rendezvous round, which has trained since, while
     * no stopped incident is open: the group it stopped has re-formed and trains, and the report arrived after that
     * (torchelastic's lines arrive after the trainers' own events: they wait in batches, a launch's last line is sent
     * as it exits, the next launch of the job may be training by then). It belongs to an interruption that is over, or
     * to an earlier launch: it stays on the timeline and stops nothing. Opening an incident for it would leave the job
     * recovering with no recovery to come (the rounds and restores that end it came first), every later step taken
     * for a straggler's. Before the new group's first step the report may be a crash at its start (its round stamped
     * on arrival, after it): that still stops the job.
     */
    private static boolean reportedAfterTheGroupReformed(Job job, Instant at) {
        RendezvousRound current = job.membership.current();
        Incident open = job.incidents.open();
        return current != null
                && at.isBefore(current.time())
                && (open == null || !open.stopped())
                && job.lastProgressAt != null
                && job.lastProgressAt.isAfter(current.time())
                && !job.state.isTerminal();
    }

    /** A new round or a restart means the workers of before have ended: measures the open incident's stop request. */
    private static void workersStopped(Job job, Instant at, String signal) {
        Incident open = job.incidents.open();
        if (open != null && open.stopped()) {
            open.workersStopped(at, signal);
        }
    }

    private static boolean anyAbsent(Incident warned, RendezvousRound round) {
        for (String node : warned.nodes()) {
            boolean present = false;
            for (TrainerData.Participant p : round.participants()) {
                present |= p.node().equals(node);
            }
            if (!present) {
                return true;
            }
        }
        return false;
    }

    /** A node of the job: notice, termination, not-ready, ready again, GPU failure. */
    void onSignal(Job job, long eff, NodeSignal s) {
        String trigger = "node:" + s.kind().name().toLowerCase(Locale.ROOT);
        String detail = s.detail();
        job.timeline(s.time(), TimelineEntry.Kind.SIGNAL, s.kind().name(), Summaries.of(s));
        switch (s.kind()) {
            case INTERRUPTION_NOTICE:
                interruptions.warn(
                        job,
                        eff,
                        s.time(),
                        IncidentCause.ofNotice(s.noticeKind()),
                        s.node(),
                        detail != null ? detail : "notice " + s.noticeKind(),
                        s.noticeKind(),
                        s.deadline());
                break;
            case TERMINATED:
                interruptions.interrupt(
                        job,
                        s.time(),
                        IncidentCause.NODE_FAILURE,
                        s.node(),
                        detail != null ? detail : "node terminated",
                        JobState.RECOVERING,
                        trigger);
                job.membership.markLost(s.node(), s.time());
                job.checkpoints.nodeLost(s.node());
                workersStopped(job, s.time(), trigger);
                break;
            case NOT_READY:
                interruptions.warn(
                        job,
                        eff,
                        s.time(),
                        IncidentCause.NODE_FAILURE,
                        s.node(),
                        detail != null ? detail : "node not ready",
                        null,
                        null);
                break;
            case GPU_FAILED:
                interruptions.warn(
                        job,
                        eff,
                        s.time(),
                        IncidentCause.GPU_FAULT,
                        s.node(),
                        detail != null ? detail : "GPU failed",
                        null,
                        null);
                break;
            case READY:
                Incident open = job.incidents.open();
                if (open != null
                        && !open.stopped()
                        && open.cause() == IncidentCause.NODE_FAILURE
                        && s.node().equals(open.originNode())) {
                    open.phase(IncidentPhase.AVERTED, s.time(), s.node(), "node ready again");
                    interruptions.close(job, s.time(), IncidentOutcome.AVERTED);
                }
                break;
            default:
                break;
        }
    }
}
