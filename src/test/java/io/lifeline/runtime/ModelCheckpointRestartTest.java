package io.lifeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.ModelConfig;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.TimelineEntry;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.eventlog.AppliedPosition;
import io.lifeline.eventlog.EventLogWriter;
import io.lifeline.eventlog.LogStacks;
import io.lifeline.eventlog.ModelCheckpointStore;
import io.lifeline.eventlog.PartitionMaintenance;
import io.lifeline.testing.CloudEvents;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Restarts as they happen to a replica, each a fresh model rebuilt from what PostgreSQL holds: the newest model
 * checkpoint and the events stored after it. A job whose events retention dropped (a 41-day-old submission) is still
 * there, with its checkpoints and its open incident, and so is its node; the events after a checkpoint are applied
 * exactly once; only the newest checkpoints are kept.
 */
@QuarkusTest
class ModelCheckpointRestartTest {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

    @Inject
    EventLogWriter writer;

    @Inject
    io.lifeline.codec.EventCodec codec;

    @Inject
    ModelCheckpointStore store;

    @Inject
    PartitionMaintenance partitions;

    @Inject
    AgroalDataSource db;

    @Inject
    ModelConfig config;

    private final Clock clock = Clock.systemUTC();
    private final List<Replica> replicas = new ArrayList<>();

    /** One replica's model host and its checkpoints. */
    private record Replica(ModelRuntime runtime, ModelCheckpoints checkpoints) {
        <T> T read(Function<LiveModel, T> query) throws Exception {
            return runtime.read(query).get(30, TimeUnit.SECONDS);
        }
    }

    /** A replica starting: a fresh model, rebuilt as start-up rebuilds it. */
    private Replica start(ModelConfig settings) throws Exception {
        ModelRuntime runtime = ModelRuntimes.start(clock);
        Replica r = new Replica(runtime, new ModelCheckpoints(runtime, store, settings, clock));
        replicas.add(r);
        new ModelRebuild(LogStacks.follower(db, codec), r.checkpoints(), runtime)
                .run((events, seqs) -> runtime.enqueueFollowed(events, seqs, Duration.ofMinutes(1)));
        return r;
    }

    @AfterEach
    void stop() {
        for (Replica r : replicas) {
            r.checkpoints().stop();
            ModelRuntimes.stop(r.runtime());
        }
    }

    @Test
    void aJobWhoseEventsRetentionDroppedSurvivesARestart() throws Exception {
        String id = CloudEvents.uniqueId().substring(0, 8);
        String job = "retention/long-" + id;
        String node = "retention-node-" + id;
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(41);
        Instant t0 = day.atTime(10, 0).toInstant(ZoneOffset.UTC);
        createPartition(day);
        writer.append(List.of(
                        event(
                                node,
                                t0,
                                EventType.NODE_REGISTERED,
                                new NodeData.Registered(
                                        "long-pool", CapacityType.ON_DEMAND, "z1", "p5.48xlarge", 8, null)),
                        event(node, t0.plusSeconds(1), EventType.NODE_READY, new NodeData.Ready()),
                        event(
                                job,
                                t0,
                                EventType.JOB_SUBMITTED,
                                new JobData.Submitted(
                                        "retention", "owner", null, new ElasticPolicy(1, 1, 8, 3), 8, 1800L)),
                        event(
                                job,
                                t0.plusSeconds(60),
                                EventType.WORKLOAD_ADMITTED,
                                new SchedulerData.Admitted("wl", "main")),
                        event(
                                job,
                                t0.plusSeconds(120),
                                EventType.TRAINER_RENDEZVOUS,
                                new TrainerData.Rendezvous(
                                        "r1", 1, 8, List.of(new TrainerData.Participant(node, 0, 8)))),
                        event(
                                job,
                                t0.plusSeconds(180),
                                EventType.TRAINER_PROGRESS,
                                new TrainerData.Progress(10, 100.0, null)),
                        event(
                                job,
                                t0.plusSeconds(600),
                                EventType.TRAINER_CHECKPOINT_STARTED,
                                new TrainerData.CheckpointStarted("ck-1", 200, false)),
                        event(
                                job,
                                t0.plusSeconds(630),
                                EventType.TRAINER_CHECKPOINT_COMPLETED,
                                new TrainerData.CheckpointCompleted(
                                        "ck-1", 200, 1_000_000L, 30, 30, "s3://long/ck-1", null, null, false, 8)),
                        event(
                                job,
                                t0.plusSeconds(3600),
                                EventType.TRAINER_WORKER_FAILED,
                                new TrainerData.WorkerFailed("r1", 3, node, 1, "NCCL timeout"))))
                .get(30, TimeUnit.SECONDS);

        // A replica that ran while these were ingested checkpoints its model.
        Replica before = start(config);
        assertThat(before.checkpoints().checkpoint().get(60, TimeUnit.SECONDS)).isTrue();

        partitions.applyRetention();
        assertThat(storedEventsOf(job))
                .as("retention dropped the job's events with their partition")
                .isZero();
        assertThat(storedIdsBefore(day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant()))
                .as("and the ids of the events it no longer holds")
                .isZero();
        assertThat(partitions.partitions(db.getConnection())).doesNotContain("event_log_p" + DAY.format(day));

        Replica after = start(config);
        JobDetail detail = after.read(m -> m.jobs().detail(job)).orElseThrow();
        assertThat(detail.summary().state()).isEqualTo(JobState.RECOVERING);
        assertThat(detail.summary().submittedAt()).isEqualTo(t0);
        List<IncidentView> incidents = after.read(m -> m.jobs().incidents(job)).orElseThrow();
        assertThat(incidents).singleElement().satisfies(i -> {
            assertThat(i.outcome()).isEqualTo(IncidentOutcome.OPEN);
            assertThat(i.originNode()).isEqualTo(node);
        });
        CheckpointHistory checkpoints =
                after.read(m -> m.jobs().checkpoints(job)).orElseThrow();
        assertThat(checkpoints.newestGood()).isEqualTo("ck-1");
        NodeLifecycle state = after.read(m -> m.fleet().lifecycle(node));
        String pool = after.read(m -> m.fleet().find(node).pool());
        List<String> jobsOnNode = after.read(m -> m.jobs().jobsOn(node));
        assertThat(state).isEqualTo(NodeLifecycle.READY);
        assertThat(pool).isEqualTo("long-pool");
        assertThat(jobsOnNode).containsExactly(job);

        // What the whole log alone rebuilds: the job is gone.
        Replica withoutCheckpoint = start(replayingTheWholeLog());
        Optional<JobDetail> rebuilt = withoutCheckpoint.read(m -> m.jobs().detail(job));
        NodeLifecycle nodeRebuilt = withoutCheckpoint.read(m -> m.fleet().lifecycle(node));
        assertThat(rebuilt).isEmpty();
        assertThat(nodeRebuilt).isNull();
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void theEventsAfterACheckpointAreAppliedExactlyOnce() throws Exception {
        String job = "restart/tail-" + CloudEvents.uniqueId().substring(0, 8);
        Instant t0 = Instant.now().minusSeconds(600).truncatedTo(ChronoUnit.MILLIS);
        Replica first = start(config);
        Event submitted = event(
                job,
                t0,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("restart", "owner", null, new ElasticPolicy(1, 2, 8, 3), 8, 600L));
        Event admitted =
                event(job, t0.plusSeconds(10), EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", null));
        Event rendezvous = event(
                job,
                t0.plusSeconds(20),
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("r", 1, 8, List.of(new TrainerData.Participant("tail-node", 0, 8))));
        writer.append(List.of(submitted, admitted, rendezvous)).get(30, TimeUnit.SECONDS);
        long s1 = seqOf(submitted);
        long s3 = seqOf(rendezvous);
        // The first and the third were applied, the second (stored between them) not yet: a checkpoint now holds the
        // first up to its seq and the third ahead of it.
        first.runtime().enqueueFollowed(List.of(submitted), new long[] {s1}, Duration.ofSeconds(10));
        first.runtime()
                .enqueueStored(
                        List.of(rendezvous), new long[] {s3}, first.runtime().admit(List.of(rendezvous)));
        AppliedPosition taken = first.read(m -> first.runtime().appliedPosition());
        assertThat(taken).isEqualTo(AppliedPosition.of(s1, s3));
        assertThat(first.checkpoints().checkpoint().get(60, TimeUnit.SECONDS)).isTrue();

        Replica second = start(config);
        JobDetail detail = second.read(m -> m.jobs().detail(job)).orElseThrow();
        assertThat(detail.duplicatesDropped())
                .as("the event applied ahead is not replayed")
                .isZero();
        assertThat(second.read(m -> m.jobs().timeline(job, null, null, null, 100))
                        .orElseThrow()
                        .entries())
                .filteredOn(e -> e.kind() == TimelineEntry.Kind.EVENT)
                .extracting(TimelineEntry::type)
                .containsExactly("job.submitted", "workload.admitted", "trainer.rendezvous");
        AppliedPosition reached = second.read(m -> second.runtime().appliedPosition());
        assertThat(reached.covers(seqOf(admitted))).as("%s", reached).isTrue();
        assertThat(reached.covers(s3)).as("%s", reached).isTrue();
    }

    @Test
    void onlyTheNewestCheckpointsAreKept() throws Exception {
        Replica r = start(config);
        List<Long> before = store.ids();
        for (int i = 0; i < config.checkpointsKept() + 2; i++) {
            assertThat(r.checkpoints().checkpoint().get(60, TimeUnit.SECONDS)).isTrue();
        }
        List<Long> kept = store.ids();
        assertThat(kept).hasSize(config.checkpointsKept());
        assertThat(kept).doesNotContainAnyElementsOf(before);
        assertThat(store.newest().orElseThrow().id()).isEqualTo(kept.get(0));
    }

    private static Event event(String subject, Instant time, EventType type, EventData data) {
        return new Event(CloudEvents.uniqueId(), "test/checkpoint-restart", type, subject, time, data);
    }

    private void createPartition(LocalDate day) throws Exception {
        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS event_log_p" + DAY.format(day)
                    + " PARTITION OF event_log FOR VALUES FROM ('" + day + "T00:00:00Z') TO ('" + day.plusDays(1)
                    + "T00:00:00Z')");
        }
    }

    private long storedEventsOf(String subject) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM event_log WHERE subject = ?")) {
            ps.setString(1, subject);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long storedIdsBefore(Instant time) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM event_ids WHERE time < ?")) {
            ps.setObject(1, time.atOffset(ZoneOffset.UTC));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long seqOf(Event e) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT seq FROM event_log WHERE source = ? AND event_id = ?")) {
            ps.setString(1, e.source());
            ps.setString(2, e.id());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    /** The settings of a replica told not to start from a checkpoint. */
    private ModelConfig replayingTheWholeLog() {
        return new ModelConfig() {
            @Override
            public Duration snapshotInterval() {
                return config.snapshotInterval();
            }

            @Override
            public Duration checkpointInterval() {
                return config.checkpointInterval();
            }

            @Override
            public int checkpointsKept() {
                return config.checkpointsKept();
            }

            @Override
            public boolean startFromCheckpoint() {
                return false;
            }
        };
    }
}
