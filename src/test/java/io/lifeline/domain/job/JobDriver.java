package io.lifeline.domain.job;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.testing.MovableClock;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Drives one job of a {@link Jobs} model with catalogue events at wall-clock times of one day
 * ({@code "10:47:00"}), so tests read like timelines.
 */
public final class JobDriver {

    public static final String DAY = "2024-05-01";
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss");

    public final MovableClock clock = new MovableClock(at("00:00:00"));
    public final TestNodes nodes = new TestNodes();
    public final Jobs jobs;
    public final String job;
    private final List<Event> applied = new ArrayList<>();
    private int ids;

    public JobDriver(String job) {
        this(job, JobsConfig.defaults());
    }

    public JobDriver(String job, JobsConfig config) {
        this.job = job;
        this.jobs = new Jobs(nodes, clock, config);
    }

    public static Instant at(String hms) {
        return Instant.parse(DAY + "T" + LocalTime.parse(hms).format(HMS) + "Z");
    }

    /** Builds an event for this driver's job with a fresh id. */
    public Event event(String hms, EventType type, EventData data) {
        return event(job, hms, type, data);
    }

    public Event event(String subject, String hms, EventType type, EventData data) {
        return new Event(
                "e" + (++ids), "test://" + type.family().name().toLowerCase(Locale.ROOT), type, subject, at(hms), data);
    }

    public JobDriver apply(Event e) {
        applied.add(e);
        jobs.apply(e);
        return this;
    }

    /** Every event applied so far, in order. */
    public List<Event> applied() {
        return List.copyOf(applied);
    }

    public JobDriver submit(String hms, int minNodes, int maxNodes, int gpusPerNode, Long intervalSeconds) {
        return apply(event(
                hms,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(
                        namespace(),
                        "alice",
                        "high",
                        new ElasticPolicy(minNodes, maxNodes, gpusPerNode, 3),
                        gpusPerNode,
                        intervalSeconds)));
    }

    private String namespace() {
        return job.substring(0, job.indexOf('/'));
    }

    public JobDriver admit(String hms) {
        return apply(event(hms, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "team-queue")));
    }

    /** A round where each node hosts {@code ranksPerNode} consecutive ranks. */
    public JobDriver rendezvous(String hms, int round, int ranksPerNode, String... nodeNames) {
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < nodeNames.length; i++) {
            ps.add(new TrainerData.Participant(nodeNames[i], i * ranksPerNode, ranksPerNode));
        }
        return apply(event(
                hms,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run-1", round, ranksPerNode * nodeNames.length, ps)));
    }

    /** A round as {@link #rendezvous(String, int, int, String...)} whose endpoint's node is named. */
    public JobDriver rendezvousWithEndpoint(
            String hms, int round, int ranksPerNode, String endpointNode, String... nodeNames) {
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < nodeNames.length; i++) {
            ps.add(new TrainerData.Participant(nodeNames[i], i * ranksPerNode, ranksPerNode));
        }
        return apply(event(
                hms,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run-1", round, ranksPerNode * nodeNames.length, ps, endpointNode)));
    }

    public JobDriver progress(String hms, long step) {
        return apply(event(hms, EventType.TRAINER_PROGRESS, new TrainerData.Progress(step, 120.0, 250000.0)));
    }

    public JobDriver checkpointStarted(String hms, String id, long step, boolean async) {
        return apply(
                event(hms, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, async)));
    }

    public JobDriver checkpointCompleted(
            String hms, String id, long step, double durationS, double blockingS, boolean async) {
        return apply(event(
                hms,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id,
                        step,
                        350_000_000_000L,
                        durationS,
                        blockingS,
                        "s3://ckpt/" + id,
                        "sha256:" + id,
                        64,
                        async,
                        64)));
    }

    public JobDriver checkpointFailed(String hms, String id, long step, String error) {
        return apply(
                event(hms, EventType.TRAINER_CHECKPOINT_FAILED, new TrainerData.CheckpointFailed(id, step, error)));
    }

    public JobDriver checkpointVerified(String hms, String id, boolean ok) {
        return apply(event(
                hms,
                EventType.TRAINER_CHECKPOINT_VERIFIED,
                new TrainerData.CheckpointVerified(id, ok, "sha256:" + id)));
    }

    public JobDriver restored(String hms, String id, long step) {
        return apply(event(hms, EventType.TRAINER_RESTORED, new TrainerData.Restored(id, step, "run-1")));
    }

    public JobDriver workerFailed(String hms, int rank, String node) {
        return apply(event(
                hms,
                EventType.TRAINER_WORKER_FAILED,
                new TrainerData.WorkerFailed("run-1", rank, node, 1, "NCCL watchdog timeout")));
    }

    public JobDriver restarted(String hms, int count) {
        return apply(
                event(hms, EventType.TRAINER_RESTARTED, new TrainerData.Restarted("run-1", count, "worker failed")));
    }

    public JobDriver preempted(String hms) {
        return apply(event(
                hms,
                EventType.WORKLOAD_PREEMPTED,
                new SchedulerData.Preempted("higher priority", "ml/urgent", 1000, 100)));
    }

    public JobDriver evicted(String hms, String reason) {
        return apply(event(hms, EventType.WORKLOAD_EVICTED, new SchedulerData.Evicted(reason)));
    }

    public JobDriver requeued(String hms) {
        return apply(event(hms, EventType.WORKLOAD_REQUEUED, new SchedulerData.Requeued("requeued by operator")));
    }

    public JobDriver podEvicted(String hms, String pod, String node) {
        return apply(event(hms, EventType.POD_EVICTED, new SchedulerData.PodEvicted(pod, node, "drain")));
    }

    public JobDriver finished(String hms, JobData.Outcome outcome) {
        return apply(event(hms, EventType.JOB_FINISHED, new JobData.Finished(outcome, "done")));
    }

    public JobDriver notice(String hms, String node, NoticeKind kind, String deadlineHms) {
        jobs.onNodeSignal(new NodeSignal(
                node,
                at(hms),
                NodeSignal.Kind.INTERRUPTION_NOTICE,
                kind,
                deadlineHms == null ? null : at(deadlineHms),
                null));
        return this;
    }

    public JobDriver signal(String hms, String node, NodeSignal.Kind kind, String detail) {
        jobs.onNodeSignal(new NodeSignal(node, at(hms), kind, null, null, detail));
        return this;
    }

    public JobDriver terminated(String hms, String node) {
        return signal(hms, node, NodeSignal.Kind.TERMINATED, "spot instance reclaimed");
    }

    public JobDriver now(String hms) {
        clock.set(at(hms));
        return this;
    }

    public JobState state() {
        return jobs.detail(job).orElseThrow().summary().state();
    }

    public JobDetail detail() {
        return jobs.detail(job).orElseThrow();
    }

    public GoodputView goodput() {
        return jobs.goodput(job).orElseThrow();
    }

    public FreshnessView freshness() {
        return jobs.freshness(job).orElseThrow();
    }

    public List<IncidentView> incidents() {
        return jobs.incidents(job).orElseThrow();
    }

    public IncidentView lastIncident() {
        List<IncidentView> all = incidents();
        return all.get(all.size() - 1);
    }

    public List<RefusedTransition> refusals() {
        return detail().refusedTransitions();
    }

    /** Eight-node standard start: submitted, admitted, first round on n1..n{nodes}, first progress. */
    public JobDriver runningOn(int nodeCount, String startHms) {
        String[] names = new String[nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            names[i] = "n" + (i + 1);
        }
        return submit(startHms, 1, nodeCount, 8, 1800L)
                .admit(startHms)
                .rendezvous(startHms, 1, 8, names)
                .progress(startHms, 0);
    }
}
