package io.lifeline.domain.job.incident;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.ProductiveMark;
import io.lifeline.domain.job.support.Ring;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One interruption of one job, grouping the signals of every layer that belong to it. The job model
 * (which owns the goodput ledger) drives it; the incident keeps the times, the cause, the lost work and
 * the recovery time accrued while it was stopped.
 */
public final class Incident {

    private static final int MAX_NODES = 64;
    private static final int MAX_PHASES = 48;
    /** Failed workers kept per incident: enough to see whether every rank failed alike. */
    static final int MAX_FAILURES = 16;

    private static final int N = Bucket.values().length;

    private final String id;
    private final String job;
    private final Instant openedAt;
    private final Set<String> nodes = new TreeSet<>();
    private final Ring<PhaseStamp> phases = new Ring<>(MAX_PHASES);
    private final long[] accrued = new long[N];
    private final long[] accruedGpu = new long[N];
    private IncidentCause cause;
    private String causeDetail;
    private IncidentOutcome outcome = IncidentOutcome.OPEN;
    private Instant stoppedAt;
    private Instant closedAt;
    private String originNode;
    private String pool;
    private NoticeKind noticeKind;
    private Instant noticeAt;
    private Instant deadline;
    private long warningExpiresMs = Long.MAX_VALUE;
    private boolean checkpointBeforeExit;
    private ProductiveMark stopMark;
    private String assumedCheckpoint;
    private long lostMillis;
    private long lostGpuMillis;
    private Bucket stage = Bucket.RECOVERY_DETECTION;
    private boolean recoveryMarker;
    private long stopStep = -1;
    private String restoredCheckpoint;
    private Long restoredStep;
    private int gpusAtStop;
    private int worldSizeBefore;
    private Integer worldSizeAfter;
    private int workerFailures;
    private int epochAtStop = -1;
    private StopLatency stopLatency = StopLatency.NONE;
    private final Ring<WorkerFailure> failures = new Ring<>(MAX_FAILURES);
    private Long checkpointStepAtStop;
    private List<String> membersAtStop = List.of();

    public Incident(String id, String job, Instant openedAt, IncidentCause cause, String causeDetail, String node) {
        this.id = id;
        this.job = job;
        this.openedAt = openedAt;
        this.cause = cause;
        this.causeDetail = causeDetail;
        this.originNode = node;
        addNode(node);
    }

    /** The incident's state as plain values. */
    public SavedIncident save() {
        return new SavedIncident(
                id,
                job,
                openedAt,
                List.copyOf(nodes),
                phases.toList(),
                Bucket.nonZero(accrued),
                Bucket.nonZero(accruedGpu),
                cause,
                causeDetail,
                outcome,
                stoppedAt,
                closedAt,
                originNode,
                pool,
                noticeKind,
                noticeAt,
                deadline,
                warningExpiresMs,
                checkpointBeforeExit,
                stopMark,
                assumedCheckpoint,
                lostMillis,
                lostGpuMillis,
                stage,
                recoveryMarker,
                stopStep,
                restoredCheckpoint,
                restoredStep,
                gpusAtStop,
                worldSizeBefore,
                worldSizeAfter,
                workerFailures,
                epochAtStop,
                stopLatency,
                failures.toList(),
                checkpointStepAtStop,
                membersAtStop);
    }

    /** An incident in the state {@link #save()} gave. */
    public static Incident restore(SavedIncident s) {
        Incident i = new Incident(s.id(), s.job(), s.openedAt(), s.cause(), s.causeDetail(), null);
        i.nodes.addAll(s.nodes());
        s.phases().forEach(i.phases::add);
        Bucket.fill(i.accrued, s.accrued());
        Bucket.fill(i.accruedGpu, s.accruedGpu());
        i.outcome = s.outcome();
        i.stoppedAt = s.stoppedAt();
        i.closedAt = s.closedAt();
        i.originNode = s.originNode();
        i.pool = s.pool();
        i.noticeKind = s.noticeKind();
        i.noticeAt = s.noticeAt();
        i.deadline = s.deadline();
        i.warningExpiresMs = s.warningExpiresMs();
        i.checkpointBeforeExit = s.checkpointBeforeExit();
        i.stopMark = s.stopMark();
        i.assumedCheckpoint = s.assumedCheckpoint();
        i.lostMillis = s.lostMillis();
        i.lostGpuMillis = s.lostGpuMillis();
        i.stage = s.stage();
        i.recoveryMarker = s.recoveryMarker();
        i.stopStep = s.stopStep();
        i.restoredCheckpoint = s.restoredCheckpoint();
        i.restoredStep = s.restoredStep();
        i.gpusAtStop = s.gpusAtStop();
        i.worldSizeBefore = s.worldSizeBefore();
        i.worldSizeAfter = s.worldSizeAfter();
        i.workerFailures = s.workerFailures();
        i.epochAtStop = s.epochAtStop();
        i.stopLatency = s.stopLatency() == null ? StopLatency.NONE : s.stopLatency();
        if (s.failures() != null) {
            s.failures().forEach(i.failures::add);
        }
        i.checkpointStepAtStop = s.checkpointStepAtStop();
        i.membersAtStop = s.membersAtStop() == null ? List.of() : s.membersAtStop();
        return i;
    }

    public String id() {
        return id;
    }

    /** Adopts {@code c} when it explains the incident better than the current cause. */
    public void cause(IncidentCause c, String detail) {
        if (c.strength() > cause.strength()) {
            cause = c;
            causeDetail = detail;
        } else if (causeDetail == null && c == cause) {
            causeDetail = detail;
        }
    }

    public IncidentCause cause() {
        return cause;
    }

    public void addNode(String node) {
        if (node != null && nodes.size() < MAX_NODES) {
            nodes.add(node);
        }
    }

    public String originNode() {
        return originNode;
    }

    /** Records a notice; the first one sets the lead-time figures. */
    public void notice(NoticeKind kind, Instant at, Instant noticeDeadline) {
        if (noticeAt == null) {
            noticeKind = kind;
            noticeAt = at;
            deadline = noticeDeadline;
        }
    }

    /** A warning-only incident expires (averted) once the accounting clock passes this time. */
    public void warnUntil(long expiresMs) {
        warningExpiresMs = warningExpiresMs == Long.MAX_VALUE ? expiresMs : Math.max(warningExpiresMs, expiresMs);
    }

    public long warningExpiresMs() {
        return warningExpiresMs;
    }

    public void phase(IncidentPhase p, Instant at, String node, String detail) {
        phases.add(new PhaseStamp(p, at, node, detail));
    }

    /**
     * Training stopped.
     *
     * @param at                when (event time)
     * @param node              the node whose signal stopped it, may be null
     * @param mark              productive time at the stop
     * @param step              the last progress step before the stop (-1 when none)
     * @param gpus              GPUs held just before the stop
     * @param worldSize         ranks just before the stop
     * @param checkpointedFirst whether a checkpoint begun after the incident opened completed before now
     * @param epoch             the lineage epoch that was running
     */
    public void stop(
            Instant at,
            String node,
            ProductiveMark mark,
            long step,
            int gpus,
            int worldSize,
            boolean checkpointedFirst,
            int epoch) {
        stoppedAt = at;
        epochAtStop = epoch;
        stopMark = mark;
        stopStep = step;
        gpusAtStop = gpus;
        worldSizeBefore = worldSize;
        checkpointBeforeExit = checkpointedFirst;
        if (node != null) {
            originNode = node;
            addNode(node);
        }
    }

    /** Something asked the job's workers to stop (an eviction, a preemption); the first request is kept. */
    public void stopRequested(StopRequest kind, Instant at) {
        stopLatency = stopLatency.requested(kind, at);
    }

    /** A sign that the job's workers stopped (a worker's exit, a restart, a new round, the job's end). */
    public void workersStopped(Instant at, String signal) {
        stopLatency = stopLatency.workersStopped(at, signal);
    }

    /** The eviction → stop time as measured so far. */
    public StopLatency stopLatency() {
        return stopLatency;
    }

    public boolean stopped() {
        return stoppedAt != null;
    }

    public Instant stoppedAt() {
        return stoppedAt;
    }

    public Instant openedAt() {
        return openedAt;
    }

    /** The lineage epoch that was running when training stopped (-1 before the stop). */
    public int epochAtStop() {
        return epochAtStop;
    }

    public void checkpointBeforeExit(boolean saved) {
        checkpointBeforeExit = saved;
    }

    /** Nodes involved, sorted. */
    public List<String> nodes() {
        return List.copyOf(nodes);
    }

    public ProductiveMark stopMark() {
        return stopMark;
    }

    public long stopStep() {
        return stopStep;
    }

    /** The lost work the incident should show when the run restarts from {@code ref}. */
    public ProductiveMark lostFor(ProductiveMark ref) {
        return new ProductiveMark(
                Math.max(0, stopMark.millis() - ref.millis()), Math.max(0, stopMark.gpuMillis() - ref.gpuMillis()));
    }

    public ProductiveMark lost() {
        return new ProductiveMark(lostMillis, lostGpuMillis);
    }

    /** Sets the lost work (after the ledger moved it) and the checkpoint it is measured from. */
    public void lost(ProductiveMark amount, String fromCheckpoint) {
        lostMillis = amount.millis();
        lostGpuMillis = amount.gpuMillis();
        assumedCheckpoint = fromCheckpoint;
    }

    /** Time the job spent in bucket {@code b} while this incident was stopped. */
    public void accrue(Bucket b, long ms, int gpus) {
        accrued[b.ordinal()] += ms;
        accruedGpu[b.ordinal()] += ms * gpus;
    }

    /** Time already accrued elsewhere that belongs to this incident (a rescale turned into a recovery). */
    public void accrueMoved(Bucket b, ProductiveMark amount) {
        accrued[b.ordinal()] += amount.millis();
        accruedGpu[b.ordinal()] += amount.gpuMillis();
    }

    /** Moves the recovery to a later phase (never back). */
    public void stage(Bucket recoveryPhase) {
        if (recoveryPhase.isRecovery() && recoveryPhase.ordinal() > stage.ordinal()) {
            stage = recoveryPhase;
        }
    }

    /** The job hung: its time goes to {@link Bucket#HANG} until a recovery phase follows. */
    public void hung() {
        if (stage == Bucket.RECOVERY_DETECTION && !recoveryMarker) {
            stage = Bucket.HANG;
        }
    }

    /** The recovery phase the job is in. */
    public Bucket stage() {
        return stage;
    }

    /** A sign that the runtime is restarting (restart, admission, rendezvous, restore). */
    public void recoveryMarker() {
        recoveryMarker = true;
    }

    public boolean hasRecoveryMarker() {
        return recoveryMarker;
    }

    public void restored(String checkpointId, long step) {
        restoredCheckpoint = checkpointId;
        restoredStep = step;
    }

    public boolean restored() {
        return restoredStep != null;
    }

    /** A failed worker joined (the newest {@link #MAX_FAILURES} are kept). */
    public void workerFailed(WorkerFailure f) {
        workerFailed();
        failures.add(f);
    }

    /**
     * What the attempt that this stop ended had reached: the step of the newest good checkpoint, or null without one,
     * and the nodes in the group (bounded like {@link #nodes()}).
     */
    public void attemptEnded(Long checkpointStep, List<String> members) {
        checkpointStepAtStop = checkpointStep;
        membersAtStop = members.size() > MAX_NODES ? List.copyOf(members.subList(0, MAX_NODES)) : List.copyOf(members);
    }

    public void workerFailed() {
        workerFailures++;
    }

    public void pool(String p) {
        if (pool == null) {
            pool = p;
        }
    }

    public String pool() {
        return pool;
    }

    public void close(Instant at, IncidentOutcome how, Integer worldSize) {
        closedAt = at;
        outcome = how;
        worldSizeAfter = worldSize;
    }

    public boolean open() {
        return outcome == IncidentOutcome.OPEN;
    }

    public IncidentOutcome outcome() {
        return outcome;
    }

    /** The incident's cost by recovery phase, as accrued so far (see {@link RecoveryPhase}). */
    public PhaseSplit phaseSplit() {
        return PhaseSplitter.split(accrued, accruedGpu, lostMillis, lostGpuMillis, phases.toList(), closedAt);
    }

    public Instant closedAt() {
        return closedAt;
    }

    /** Recovery milliseconds accrued so far (all phases). */
    public long recoveryMillis() {
        return accrued[Bucket.RECOVERY_DETECTION.ordinal()]
                + accrued[Bucket.RECOVERY_RESTART.ordinal()]
                + accrued[Bucket.RECOVERY_LOAD.ordinal()];
    }

    /**
     * The incident as of now.
     *
     * @param pendingMs  time since the job's accounting clock that an open, stopped incident adds
     * @param activity   the job's current bucket (where the pending time goes)
     * @param gpus       GPUs the job holds now
     */
    public IncidentView view(long pendingMs, Bucket activity, int gpus) {
        long[] ms = accrued.clone();
        long[] gms = accruedGpu.clone();
        if (open() && stopped() && pendingMs > 0 && activity != null) {
            ms[activity.ordinal()] += pendingMs;
            gms[activity.ordinal()] += pendingMs * gpus;
        }
        long detection = ms[Bucket.RECOVERY_DETECTION.ordinal()];
        long restart = ms[Bucket.RECOVERY_RESTART.ordinal()];
        long load = ms[Bucket.RECOVERY_LOAD.ordinal()];
        long recoveryGpu = gms[Bucket.RECOVERY_DETECTION.ordinal()]
                + gms[Bucket.RECOVERY_RESTART.ordinal()]
                + gms[Bucket.RECOVERY_LOAD.ordinal()];
        long downtime = 0;
        for (long m : ms) {
            downtime += m;
        }
        Long announced =
                noticeAt != null && deadline != null ? deadline.toEpochMilli() - noticeAt.toEpochMilli() : null;
        Long actual = noticeAt != null && stoppedAt != null ? stoppedAt.toEpochMilli() - noticeAt.toEpochMilli() : null;
        return new IncidentView(
                id,
                job,
                cause,
                causeDetail,
                outcome,
                openedAt,
                stoppedAt,
                closedAt,
                originNode,
                List.copyOf(nodes),
                pool,
                noticeKind,
                noticeAt,
                deadline,
                announced,
                actual,
                checkpointBeforeExit,
                assumedCheckpoint,
                restoredCheckpoint,
                restoredStep,
                lostMillis,
                detection + restart + load,
                detection,
                restart,
                load,
                ms[Bucket.WAITING.ordinal()],
                ms[Bucket.HANG.ordinal()],
                downtime,
                (lostGpuMillis + recoveryGpu + gms[Bucket.HANG.ordinal()]) / GoodputView.MILLIS_PER_HOUR,
                gpusAtStop,
                worldSizeBefore,
                worldSizeAfter,
                workerFailures,
                phases.toList(),
                stopLatency.request(),
                stopLatency.requestedAt(),
                stopLatency.stoppedAt(),
                stopLatency.stoppedBy(),
                stopLatency.millis(),
                stopStep < 0 ? null : stopStep,
                failures.toList(),
                checkpointStepAtStop,
                membersAtStop);
    }
}
