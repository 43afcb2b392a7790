package io.lifeline.bench.goodput;

import io.lifeline.bench.goodput.InterruptionHistory.Cause;
import io.lifeline.bench.goodput.InterruptionHistory.Interruption;
import io.lifeline.codec.DecodedBatch;
import io.lifeline.codec.EventCodec;
import io.lifeline.connector.inbound.hang.HangDetector;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionPlanner;
import io.lifeline.domain.action.PlanResult;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.policy.PolicyDecision;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.domain.replay.ReplayClock;
import io.lifeline.runtime.LiveModel;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One arm of the goodput bench: a simulated trainer and cluster living through an interruption history, second by
 * second, and telling what happens in catalogue events. Every event goes through the ingest's decoder
 * ({@link EventCodec}, what {@code POST /api/v1/events} runs) into the real model on a moved clock, so both arms have
 * Lifeline's ledger beside the simulator's own count.
 *
 * <p>Without Lifeline the trainer saves every {@link GoodputSetup#fixedIntervalSeconds()}, ignores notices, and a hang
 * lasts until the process group times out. With Lifeline, the real {@link PolicyEngine} (every policy on) answers the
 * applied events and runs its periodic round every 15 s, the hang detector's judgement runs every 5 s (both their
 * defaults), and what they decide is carried out here as the executor's procedures do it: a drain asks the job for a
 * save and evicts its pods when the save is done; restart-workers restarts them in place; checkpoint-now saves. The
 * trainer adopts the checkpoint-interval advice after every save.
 *
 * <p>The ground truth never reads the model: it is the trainer's own useful work (the steps that survived, times the
 * step time), and where every other second went.
 */
final class GoodputArm {

    static final Instant START = Instant.parse("2026-01-05T00:00:00Z");
    static final String JOB = "train/llm";
    private static final String SOURCE = "bench://goodput";
    private static final long REPORT_EVERY = 10;
    private static final long POLICY_EVERY = 15;
    private static final long HANG_SCAN_EVERY = 5;

    private enum Phase {
        TRAIN,
        SAVE,
        DOWN,
        HUNG
    }

    private final GoodputSetup s;
    private final boolean lifeline;
    private final List<Interruption> history;
    private final ReplayClock clock = new ReplayClock(START);
    private final LiveModel model = LiveModel.create(clock);
    private final PolicyEngine engine;
    private final EventCodec codec = new EventCodec();
    private final List<Event> tick = new ArrayList<>();
    private long ids;
    private long applied;

    // The trainer.
    private long t;
    private Phase phase = Phase.TRAIN;
    private double work;
    private double savedWork;
    private long savedStep = -1;
    private String savedId;
    private double sinceSave;
    private double tau;
    private long saves;
    private String saveId;
    private long saveStart;
    private long saveEnd;
    private String drainNode;
    private Cause drainCause;
    private long downStart;
    private long downLength;
    private Cause downCause;
    private int milestones;
    private long hangSince;
    private int hangSlot;
    private long lastReportStep;
    private int round;

    // The cluster.
    private final String[] slotNode;
    private final Map<String, Integer> slotOf = new HashMap<>();
    private int nextNode;
    private final Map<Interruption, String> noticed = new IdentityHashMap<>();
    private final Map<String, Cause> noticeCause = new HashMap<>();

    // What the ground truth counts.
    private long checkpointSecondsSpent;
    private final Map<Cause, double[]> lost = new EnumMap<>(Cause.class);
    private final Map<Cause, Integer> struck = new EnumMap<>(Cause.class);

    // Lifeline's side.
    private final Set<String> acted = new HashSet<>();
    private final Map<String, Integer> actions = new TreeMap<>();
    private final List<String> refusals = new ArrayList<>();
    private long reportedHangSince = -1;

    GoodputArm(GoodputSetup s, boolean lifeline, List<Interruption> history) {
        this.s = s;
        this.lifeline = lifeline;
        this.history = history;
        this.tau = s.fixedIntervalSeconds();
        Map<PolicyName, PolicySettings.Entry> on = new EnumMap<>(PolicyName.class);
        for (PolicyName p : PolicyName.values()) {
            on.put(p, new PolicySettings.Entry(PolicyMode.ON, Map.of()));
        }
        this.engine = new PolicyEngine(new PolicySettings(on));
        this.slotNode = new String[s.nodes()];
        for (Cause c : Cause.values()) {
            lost.put(c, new double[3]);
            struck.put(c, 0);
        }
    }

    /** Runs the whole history; the result holds the ground truth and the ledger. */
    ArmResult run() {
        long end = Math.round(s.days() * 86_400);
        begin();
        List<Interruption> notices = new ArrayList<>();
        for (Interruption i : history) {
            if (i.leadSeconds() > 0) {
                notices.add(i);
            }
        }
        notices.sort(java.util.Comparator.comparingLong(Interruption::noticeSecond));
        int next = 0;
        int nextNotice = 0;
        for (t = 0; t < end; t++) {
            while (nextNotice < notices.size() && notices.get(nextNotice).noticeSecond() <= t) {
                notice(notices.get(nextNotice++));
            }
            while (next < history.size() && history.get(next).atSecond() <= t) {
                strike(history.get(next++));
            }
            transitions();
            if (t % REPORT_EVERY == 0) {
                report();
            }
            flush();
            if (lifeline) {
                if (t % HANG_SCAN_EVERY == 0) {
                    hangScan();
                }
                if (t % POLICY_EVERY == 0) {
                    for (PolicyDecision d : engine.periodic(model.jobs(), model.fleet(), now())) {
                        execute(d);
                    }
                }
                flush();
            }
            accrue();
        }
        flush();
        clock.advanceTo(START.plusSeconds(end));
        GoodputView ledger = model.jobs().goodput(JOB).orElseThrow();
        long useful = (long) Math.floor(work / s.stepSeconds());
        return new ArmResult(
                lifeline ? "with-lifeline" : "without-lifeline",
                s,
                end,
                useful * s.stepSeconds(),
                checkpointSecondsSpent,
                lost,
                struck,
                saves,
                tau,
                ledger,
                actions,
                refusals,
                applied);
    }

    // ---- the trainer's life

    private void begin() {
        for (int i = 0; i < slotNode.length; i++) {
            slotNode[i] = newNode(i);
        }
        emit(
                EventType.JOB_SUBMITTED,
                JOB,
                new JobData.Submitted(
                        "train",
                        "bench",
                        null,
                        // Fixed size; a long run is launched with restarts to spare (torchrun --max-restarts).
                        new ElasticPolicy(s.nodes(), s.nodes(), s.gpusPerNode(), 1_000_000),
                        s.gpusPerNode(),
                        Math.round(tau)));
        emit(EventType.WORKLOAD_ADMITTED, JOB, new SchedulerData.Admitted(JOB, null));
        rendezvous();
        emit(EventType.TRAINER_PROGRESS, JOB, new TrainerData.Progress(0, null, null));
        flush();
    }

    private void transitions() {
        if (phase == Phase.SAVE && t >= saveEnd) {
            completeSave();
        }
        if (phase == Phase.DOWN) {
            long into = t - downStart;
            if (milestones == 0 && into >= downLength / 4) {
                milestones++;
                emit(EventType.TRAINER_RESTARTED, JOB, new TrainerData.Restarted(null, round, downCause.wire()));
            }
            if (milestones == 1 && into >= downLength / 2) {
                milestones++;
                rendezvous();
            }
            if (milestones == 2 && into >= 3 * downLength / 4) {
                milestones++;
                if (savedId != null) {
                    emit(EventType.TRAINER_RESTORED, JOB, new TrainerData.Restored(savedId, savedStep, null));
                }
            }
            if (into >= downLength) {
                phase = Phase.TRAIN;
                sinceSave = 0;
                lastReportStep = step();
                emit(EventType.TRAINER_PROGRESS, JOB, new TrainerData.Progress(step(), null, null));
            }
        }
        if (phase == Phase.HUNG && t >= hangSince + s.processGroupTimeoutSeconds()) {
            // The collective times out: every rank exits and the runtime restarts them in place.
            interrupt(
                    Cause.HANG,
                    hangSlot,
                    false,
                    "NCCL watchdog timeout: collective ran for " + Math.round(s.processGroupTimeoutSeconds()) + " s");
        }
        if (phase == Phase.TRAIN && sinceSave >= tau) {
            startSave(TrainerData.SaveReason.PERIODIC);
        }
    }

    private void accrue() {
        switch (phase) {
            case TRAIN -> {
                work += 1;
                sinceSave += 1;
            }
            case SAVE -> checkpointSecondsSpent++;
            case DOWN -> lost.get(downCause)[1] += 1;
            case HUNG -> lost.get(Cause.HANG)[2] += 1;
            default -> throw new IllegalStateException(phase.name());
        }
    }

    private long step() {
        return (long) Math.floor(work / s.stepSeconds());
    }

    private void startSave(TrainerData.SaveReason reason) {
        saveId = "ckpt-" + (++saves);
        saveStart = t;
        saveEnd = t + Math.max(1, Math.round(s.checkpointSeconds()));
        phase = Phase.SAVE;
        emit(
                EventType.TRAINER_CHECKPOINT_STARTED,
                JOB,
                new TrainerData.CheckpointStarted(saveId, step(), false, reason));
    }

    private void completeSave() {
        double c = saveEnd - saveStart;
        emit(
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                JOB,
                new TrainerData.CheckpointCompleted(
                        saveId, step(), null, c, c, "s3://bench/" + saveId, null, null, false, s.gpus()));
        savedWork = work;
        savedStep = step();
        savedId = saveId;
        sinceSave = 0;
        phase = Phase.TRAIN;
        if (drainNode != null) {
            // The drain's save is in: its pods are evicted and the job restarts without the node, losing nothing.
            String node = drainNode;
            drainNode = null;
            Integer slot = slotOf.get(node);
            if (slot != null) {
                interrupt(drainCause, slot, true, "evicted by a drain of " + node + " after its checkpoint");
            }
            return;
        }
        if (lifeline) {
            adoptAdvice();
        }
    }

    /** The trainer takes the interval Lifeline advises, as an operator who applies the advice would set it. */
    private void adoptAdvice() {
        flush();
        IntervalAdvice a = model.jobs().advice(JOB).orElse(null);
        Double advised = a == null ? null : a.recommendedSeconds();
        if (advised != null && advised > 0 && Math.abs(advised - tau) > 0.01 * tau) {
            tau = Math.max(60, advised);
            emit(EventType.JOB_UPDATED, JOB, new JobData.Updated(null, null, null, Math.round(tau)));
        }
    }

    /**
     * Training stops: the work since the newest save is thrown away and the job restarts, on a new node for
     * {@code slot} when {@code replace}. An interruption while restarting starts the restart again.
     */
    private void interrupt(Cause cause, int slot, boolean replace, String error) {
        struck.merge(cause, 1, Integer::sum);
        if (phase != Phase.DOWN) {
            lost.get(cause)[0] += work - savedWork;
            work = savedWork;
        }
        String node = slotNode[slot];
        emit(
                EventType.TRAINER_WORKER_FAILED,
                JOB,
                new TrainerData.WorkerFailed(null, slot * s.gpusPerNode(), node, replace ? -9 : 1, error));
        if (replace) {
            emit(EventType.NODE_TERMINATED, node, new NodeData.Terminated(cause.wire()));
            slotOf.remove(node);
            slotNode[slot] = newNode(slot);
        }
        double r = replace ? s.nodeRestartSeconds() : s.inPlaceRestartSeconds();
        long left = phase == Phase.DOWN ? downStart + downLength - t : 0;
        phase = Phase.DOWN;
        drainNode = null;
        downStart = t;
        downLength = Math.max(left, Math.round(r));
        downCause = cause;
        milestones = 0;
        round++;
    }

    private void notice(Interruption i) {
        String node = slotNode[i.slot()];
        noticed.put(i, node);
        noticeCause.put(node, i.cause());
        NoticeKind kind = i.cause() == Cause.SPOT_RECLAIM ? NoticeKind.SPOT_RECLAIM : NoticeKind.MAINTENANCE;
        emit(
                EventType.NODE_INTERRUPTION_NOTICE,
                node,
                new NodeData.InterruptionNotice(
                        kind, s.noticeSeconds() >= 120 ? "aws" : "gcp", START.plusSeconds(i.atSecond()), null));
    }

    private void strike(Interruption i) {
        switch (i.cause()) {
            case HANG -> {
                if (phase == Phase.TRAIN || phase == Phase.SAVE) {
                    drainNode = null;
                    phase = Phase.HUNG;
                    hangSince = t;
                    hangSlot = i.slot();
                }
            }
            case SOFTWARE -> interrupt(Cause.SOFTWARE, i.slot(), false, "RuntimeError: worker crashed");
            case HARDWARE -> interrupt(Cause.HARDWARE, i.slot(), true, "node lost");
            case PLANNED, SPOT_RECLAIM -> {
                String node = noticed.remove(i);
                if (node != null && node.equals(slotNode[i.slot()])) {
                    interrupt(i.cause(), i.slot(), true, "node reclaimed");
                } else if (node != null) {
                    // Drained away in time: the node goes, the job is elsewhere.
                    emit(
                            EventType.NODE_TERMINATED,
                            node,
                            new NodeData.Terminated(i.cause().wire()));
                }
                if (node != null) {
                    noticeCause.remove(node);
                }
            }
            default -> throw new IllegalStateException(i.cause().name());
        }
    }

    private void report() {
        String node = slotNode[0];
        switch (phase) {
            case TRAIN -> {
                long step = step();
                long steps = step - lastReportStep;
                lastReportStep = step;
                emit(EventType.TRAINER_PROGRESS, JOB, new TrainerData.Progress(step, null, null));
                emit(
                        EventType.TRAINER_STEP_TIMES,
                        JOB,
                        new TrainerData.StepTimes(
                                0,
                                0,
                                node,
                                steps,
                                step,
                                s.stepSeconds(),
                                s.stepSeconds(),
                                null,
                                Math.max(0, work - step * s.stepSeconds()),
                                null,
                                null));
            }
            case SAVE ->
                emit(
                        EventType.TRAINER_STEP_TIMES,
                        JOB,
                        new TrainerData.StepTimes(
                                0,
                                0,
                                node,
                                0,
                                step(),
                                s.stepSeconds(),
                                null,
                                null,
                                (double) (t - saveStart),
                                "saving",
                                (double) (t - saveStart)));
            case HUNG ->
                emit(
                        EventType.TRAINER_STEP_TIMES,
                        JOB,
                        new TrainerData.StepTimes(
                                0,
                                0,
                                node,
                                0,
                                step(),
                                s.stepSeconds(),
                                null,
                                null,
                                (double) (t - hangSince),
                                null,
                                null));
            default -> {
                // Restarting: no process reports.
            }
        }
    }

    private void rendezvous() {
        List<TrainerData.Participant> ps = new ArrayList<>(slotNode.length);
        for (int n = 0; n < slotNode.length; n++) {
            ps.add(new TrainerData.Participant(slotNode[n], n * s.gpusPerNode(), s.gpusPerNode()));
        }
        emit(EventType.TRAINER_RENDEZVOUS, JOB, new TrainerData.Rendezvous(null, round, s.gpus(), ps));
    }

    private String newNode(int slot) {
        String name = String.format(java.util.Locale.ROOT, "gpu-%05d", nextNode++);
        boolean spot = slot < s.spotNodes();
        emit(
                EventType.NODE_REGISTERED,
                name,
                new NodeData.Registered(
                        spot ? "spot" : "on-demand",
                        spot ? CapacityType.SPOT : CapacityType.ON_DEMAND,
                        "zone-a",
                        "p5.48xlarge",
                        s.gpusPerNode(),
                        null));
        emit(EventType.NODE_READY, name, new NodeData.Ready());
        slotOf.put(name, slot);
        return name;
    }

    // ---- Lifeline's side

    private void hangScan() {
        for (Map.Entry<String, HangVerdict> e : model.jobs().hangSuspects()) {
            long since = e.getValue().since().getEpochSecond();
            if (since > reportedHangSince) {
                reportedHangSince = since;
                tick.add(HangDetector.event(e.getKey(), e.getValue(), now()));
            }
        }
        flush();
    }

    /** Carries out a decision the way the executor's procedure for its kind does. */
    private void execute(PolicyDecision d) {
        if (d.mode() != PolicyMode.ON || d.isSkipped() || !acted.add(d.idempotencyKey())) {
            return;
        }
        PlanResult plan = new ActionPlanner(model.jobs(), model.fleet()).plan(d.request(), now());
        if (!plan.ok()) {
            refusals.add(d.request().kind().wire() + " " + d.request().target() + ": " + plan.reason());
            return;
        }
        actions.merge(d.policy().wire() + " " + d.request().kind().wire(), 1, Integer::sum);
        ActionKind kind = d.request().kind();
        String target = d.request().target();
        switch (kind) {
            case DRAIN -> drain(target);
            case CHECKPOINT_NOW -> {
                if (phase == Phase.TRAIN) {
                    startSave(TrainerData.SaveReason.COMMAND);
                }
            }
            case RESTART_WORKERS -> {
                if (phase == Phase.HUNG) {
                    interrupt(Cause.HANG, hangSlot, false, "workers restarted by Lifeline: hang");
                }
            }
            default -> {
                // Counted above; nothing in this history calls for the others (preempt, rescale, resume...).
            }
        }
    }

    private void drain(String node) {
        Integer slot = slotOf.get(node);
        if (slot == null) {
            return;
        }
        emit(EventType.NODE_CORDONED, node, new NodeData.Cordoned("lifeline"));
        Cause cause = noticeCause.getOrDefault(node, Cause.HARDWARE);
        switch (phase) {
            case TRAIN -> {
                drainNode = node;
                drainCause = cause;
                startSave(TrainerData.SaveReason.PREPARE_EXIT);
            }
            case SAVE -> {
                // The save under way is the one the drain waits for.
                drainNode = node;
                drainCause = cause;
            }
            case DOWN -> {
                if (milestones < 2) {
                    // Restarting, the group not formed yet: nothing new to save, and the cordon keeps the new group
                    // off the node.
                    slotOf.remove(node);
                    slotNode[slot] = newNode(slot);
                } else {
                    // The new group already holds the node: evicting its pod makes the group form again.
                    interrupt(cause, slot, true, "evicted by a drain of " + node + " while restarting");
                }
            }
            case HUNG -> interrupt(cause, slot, true, "evicted by a drain of " + node);
            default -> throw new IllegalStateException(phase.name());
        }
    }

    // ---- events

    private Instant now() {
        return START.plusSeconds(t);
    }

    private void emit(EventType type, String subject, EventData data) {
        tick.add(new Event("g" + (++ids), SOURCE, type, subject, now(), data));
    }

    /** This second's events through the ingest's decoder into the model; with Lifeline, the policies answer them. */
    private void flush() {
        while (!tick.isEmpty()) {
            List<Event> batch = new ArrayList<>(tick);
            tick.clear();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (Event e : batch) {
                body.writeBytes(codec.toBytes(codec.encodeEvent(e)));
                body.write('\n');
            }
            DecodedBatch decoded = codec.decodeBody(body.toByteArray(), true);
            if (!decoded.rejections().isEmpty()) {
                throw new IllegalStateException("the bench wrote an event ingest refuses: " + decoded.rejections());
            }
            for (Event e : decoded.events()) {
                clock.advanceTo(e.time());
                ApplyOutcome outcome = model.root().apply(e);
                applied++;
                if (lifeline) {
                    for (PolicyDecision d : engine.onEvent(e, outcome, model.jobs(), model.fleet(), now())) {
                        execute(d);
                    }
                }
            }
        }
    }
}
