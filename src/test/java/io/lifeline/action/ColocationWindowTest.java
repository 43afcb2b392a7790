package io.lifeline.action;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.ActionsConfig;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.policy.ColocationPolicy;
import io.lifeline.domain.policy.PolicyDecision;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.domain.policy.colocation.ColocationRules;
import io.lifeline.domain.policy.colocation.LendingWindow;
import io.lifeline.domain.policy.colocation.WindowSchedule;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.Leaderships;
import io.lifeline.metrics.ActionMetricsForTests;
import io.lifeline.policy.ColocationService;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.MovableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A co-location window carried out, on an injected clock: the policy engine's periodic pass, the real action
 * service, executor, store (PostgreSQL) and model host, and a cluster and trainers played by the test. Weekdays
 * 08:00-20:00 Europe/Paris; the job's history starts on Wednesday 1 May 2024 at 07:45 in Paris (05:45 UTC), its
 * newest checkpoint five minutes before the test's first pass at 07:50.
 */
class ColocationWindowTest {

    private static final Instant START = Instant.parse("2024-05-01T05:45:00Z");
    private static final LendingWindow DAY = new LendingWindow(
            "day",
            "a100",
            new WindowSchedule.Weekly(
                    EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY),
                    LocalTime.of(8, 0),
                    LocalTime.of(20, 0),
                    ZoneId.of("Europe/Paris")));
    private static final String REQUESTER = PolicyName.COLOCATION.requester();

    private static EmbeddedPostgres server;
    private static AgroalDataSource db;

    private final MovableClock clock = new MovableClock(START);
    private final ActionExecutorWaitsTest.ScriptedChannels channels = new ActionExecutorWaitsTest.ScriptedChannels();
    /** What happened, in order: cluster calls and the test's own checkpoint events. */
    private final List<String> story = new CopyOnWriteArrayList<>();

    private final RecordingCluster cluster = new RecordingCluster();
    private ModelRuntime runtime;
    private Leadership leadership;
    private ActionExecutor executor;
    private DefaultActionService actions;
    private ActionStore store;
    private String job;
    private List<String> nodes;

    /** A cluster that records each scale and suspend in {@link #story}. */
    final class RecordingCluster implements ClusterActions {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public ClusterOutcome cordon(String node) {
            story.add("cordon " + node);
            return ClusterOutcome.of(ClusterOutcome.Result.PATCHED, "cordoned");
        }

        @Override
        public ClusterOutcome uncordon(String node) {
            return ClusterOutcome.of(ClusterOutcome.Result.PATCHED, "uncordoned");
        }

        @Override
        public List<PodRef> trainingPodsOn(String node) {
            return List.of();
        }

        @Override
        public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
            story.add("evict " + pod.name());
            return ClusterOutcome.of(ClusterOutcome.Result.EVICTED, "evicted");
        }

        @Override
        public ClusterOutcome scaleWorkers(String job, int workers) {
            story.add("scale " + workers);
            return ClusterOutcome.of(ClusterOutcome.Result.PATCHED, "workers " + workers);
        }

        @Override
        public ClusterOutcome suspend(String job, boolean suspended) {
            story.add("suspend");
            return ClusterOutcome.of(ClusterOutcome.Result.PATCHED, "suspended");
        }

        @Override
        public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
            return ClusterOutcome.of(ClusterOutcome.Result.PATCHED, "annotated");
        }
    }

    private static final ActionsConfig CONFIG = new ActionsConfig() {
        @Override
        public boolean executorEnabled() {
            return true;
        }

        @Override
        public Duration leaderCheckInterval() {
            return Duration.ofMillis(200);
        }

        @Override
        public Duration leaderLease() {
            return Duration.ofSeconds(2);
        }

        @Override
        public int maxConcurrent() {
            return 2;
        }

        @Override
        public Duration pollInterval() {
            return Duration.ofMillis(50);
        }

        @Override
        public Duration evictRetryInterval() {
            return Duration.ofMillis(50);
        }

        @Override
        public Duration commandRetryInterval() {
            return Duration.ofMillis(50);
        }

        @Override
        public Duration commandRetryMaxInterval() {
            return Duration.ofMillis(200);
        }
    };

    @BeforeAll
    static void database() throws Exception {
        server = EmbeddedPostgres.builder()
                .setDataDirectory(Files.createTempDirectory("lifeline-colocation"))
                .setCleanDataDirectory(true)
                .start();
        Flyway.configure()
                .dataSource(server.getPostgresDatabase())
                .locations("classpath:db/migration")
                .load()
                .migrate();
        String url = server.getJdbcUrl("postgres", "postgres");
        db = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(p -> p.maxSize(8)
                        .connectionFactoryConfiguration(f -> f.jdbcUrl(url).principal(new NamePrincipal("postgres")))));
    }

    @AfterAll
    static void closeDatabase() throws Exception {
        db.close();
        server.close();
    }

    @BeforeEach
    void start() throws Exception {
        store = new ActionStore(db, new ObjectMapper());
        runtime = ModelRuntimes.start(clock);
        // The lease is timed by the database's clock and the executor's own monotonic clock, not by the test's.
        leadership = Leaderships.of(db, CONFIG);
        executor = new ActionExecutor(
                store,
                cluster,
                channels,
                runtime,
                leadership,
                CONFIG,
                clock,
                ActionMetricsForTests.of(new SimpleMeterRegistry()));
        executor.start();
        await().atMost(Duration.ofSeconds(10)).until(executor::isLeader);
        actions = new DefaultActionService(store, executor, runtime, clock);
        String tag = UUID.randomUUID().toString().substring(0, 8);
        nodes = List.of("a1-" + tag, "a2-" + tag, "a3-" + tag, "a4-" + tag);
        for (String n : nodes) {
            apply(
                    n,
                    EventType.NODE_REGISTERED,
                    new NodeData.Registered(
                            "a100",
                            CapacityType.ON_DEMAND,
                            "eu-west-3a",
                            "p4d.24xlarge",
                            8,
                            "aws:///eu-west-3a/i-" + n));
            apply(n, EventType.NODE_READY, new NodeData.Ready());
        }
        job = "team-" + tag + "/llm";
        apply(
                job,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("team-" + tag, "alice", "high", new ElasticPolicy(2, 4, 8, 3), 8, 1800L));
        apply(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue"));
        rendezvous(1, nodes);
        apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 120.0, 250000.0));
        checkpoint(100);
        clock.advance(Duration.ofMinutes(5));
        apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(140, 120.0, 250000.0));
        story.clear();
    }

    @AfterEach
    void stop() {
        executor.stop();
        Leaderships.close(leadership);
        ModelRuntimes.stop(runtime);
    }

    // ------------------------------------------------------------------------------------------------ tests

    @Test
    void theWindowOpeningShrinksToTheMinimumOnlyAfterACheckpointAndClosingGrowsItBack() throws Exception {
        PolicyEngine engine = engine(PolicyMode.ON);
        assertThat(periodic(engine)).as("07:50 in Paris: the window is closed").isEmpty();

        clock.advance(Duration.ofMinutes(10));
        List<PolicyDecision> open = periodic(engine);
        assertThat(open)
                .singleElement()
                .satisfies(d -> assertThat(d.request().params())
                        .containsEntry("workers", "2")
                        .containsEntry("checkpointFirst", "true"));
        String shrink = submit(open.get(0));

        TrainerCommand save = await().atMost(Duration.ofSeconds(10))
                .until(() -> command(shrink + ":checkpoint:" + job), c -> c != null);
        assertThat(save.type())
                .as("the trainers save and hold still until the restart")
                .isEqualTo(CommandType.PREPARE_EXIT);
        // The checkpoint has not completed: the workers are not touched, however long it takes.
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(story).doesNotContain("scale 2");
        assertThat(state(shrink)).isEqualTo(ActionState.RUNNING);

        checkpoint(140); // the trainers saved at the step they stopped at, and trained no further
        await().atMost(Duration.ofSeconds(10)).until(() -> story.contains("scale 2"));
        assertThat(story).containsSubsequence("checkpoint 140 completed", "scale 2");
        rendezvous(2, nodes.subList(0, 2));
        ActionView shrunk = awaitDone(shrink);
        assertThat(shrunk.steps())
                .extracting(ActionStepView::name)
                .containsSubsequence(
                        "request checkpoint " + job, "await checkpoint " + job, "scale workers", "await rendezvous");
        assertThat(shrunk.outcome()).contains("rework lost: 0.00 GPU-hours");
        ColocationLedger.Rescale r = ColocationService.rescalesOf(shrunk).get(0);
        assertThat(r.fromNodes()).isEqualTo(4);
        assertThat(r.toNodes()).isEqualTo(2);
        assertThat(r.reworkGpuHours()).isZero();
        assertThat(r.checkpointed()).isTrue();

        assertThat(periodic(engine))
                .as("at its minimum while the window is open")
                .isEmpty();

        clock.advance(Duration.ofHours(12)); // 20:00 in Paris
        List<PolicyDecision> closed = periodic(engine);
        assertThat(closed)
                .singleElement()
                .satisfies(d -> assertThat(d.request().params()).containsEntry("workers", "4"));
        String grow = submit(closed.get(0));
        await().atMost(Duration.ofSeconds(10)).until(() -> command(grow + ":checkpoint:" + job) != null);
        checkpoint(141);
        await().atMost(Duration.ofSeconds(10)).until(() -> story.contains("scale 4"));
        rendezvous(3, nodes);
        ActionView grown = awaitDone(grow);

        List<ColocationLedger.Rescale> rescales = new ArrayList<>(ColocationService.rescalesOf(shrunk));
        rescales.addAll(ColocationService.rescalesOf(grown));
        List<ColocationLedger.Episode> episodes = ColocationLedger.episodes(rescales, clock.instant());
        // 2 nodes of 8 GPUs lent from 08:00 to 20:00 Paris time.
        assertThat(episodes).singleElement().satisfies(e -> {
            assertThat(e.openedAt()).isEqualTo(Instant.parse("2024-05-01T06:00:00Z"));
            assertThat(e.closedAt()).isEqualTo(Instant.parse("2024-05-01T18:00:00Z"));
            assertThat(e.gpuHoursYielded()).isEqualTo(192.0);
            assertThat(e.reworkGpuHours()).isZero();
            assertThat(e.checkpointFirst()).isTrue();
        });
    }

    @Test
    void aShrinkRightAfterItsCheckpointCompletedLosesNoWorkWhileTheTrainersStillVerifyIt() throws Exception {
        // These trainers verify their checkpoints (read back, checksum compared) a few seconds after each completes.
        String first = checkpoint(140);
        apply(
                job,
                EventType.TRAINER_CHECKPOINT_VERIFIED,
                new TrainerData.CheckpointVerified(first, true, "sha256:" + first));
        clock.advance(Duration.ofMinutes(5));
        apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(180, 120.0, 250000.0));
        clock.advance(Duration.ofMinutes(5));
        String shrink = submit(periodic(engine(PolicyMode.ON)).get(0));
        await().atMost(Duration.ofSeconds(10)).until(() -> command(shrink + ":checkpoint:" + job) != null);
        checkpoint(180); // saved at the step the trainers hold at; its verification is still to come
        await().atMost(Duration.ofSeconds(10)).until(() -> story.contains("scale 2"));
        rendezvous(2, nodes.subList(0, 2));
        ColocationLedger.Rescale r =
                ColocationService.rescalesOf(awaitDone(shrink)).get(0);
        assertThat(r.reworkGpuHours())
                .as("no step since the checkpoint the restart restores")
                .isZero();
    }

    @Test
    void dryRunRecordsTheSamePlanAndDoesNothing() throws Exception {
        clock.advance(Duration.ofMinutes(10));
        PolicyDecision on = periodic(engine(PolicyMode.ON)).get(0);
        PolicyDecision dry = periodic(engine(PolicyMode.DRY_RUN)).get(0);
        assertThat(dry.request()).isEqualTo(on.request());

        ActionView recorded = actions.recordDryRun(dry.request(), REQUESTER, dry.idempotencyKey());
        assertThat(recorded.state()).isEqualTo(ActionState.SUCCEEDED);
        assertThat(recorded.outcome()).startsWith("dry run: policy would rescale " + job);
        assertThat(recorded.params()).containsEntry("workers", "2").containsEntry("checkpointFirst", "true");
        assertThat(recorded.impact().jobs()).containsExactly(job);
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(story).isEmpty();
        assertThat(channels.sent).isEmpty();
        assertThat(ColocationService.rescalesOf(store.find(recorded.id()).orElseThrow()))
                .as("nothing lent")
                .isEmpty();
        assertThat(actions.recordDryRun(dry.request(), REQUESTER, dry.idempotencyKey())
                        .id())
                .as("the next pass finds the same record")
                .isEqualTo(recorded.id());
    }

    @Test
    void aRescaleWithoutACheckpointFirstCountsTheWorkItThrowsAway() throws Exception {
        String id = actions.submit(
                        new io.lifeline.domain.action.ActionRequest(
                                io.lifeline.domain.action.ActionKind.RESCALE, job, Map.of("workers", "2"), "by hand"),
                        Caller.unrestricted("token:test"),
                        null)
                .action()
                .id();
        await().atMost(Duration.ofSeconds(10)).until(() -> story.contains("scale 2"));
        rendezvous(2, nodes.subList(0, 2));
        ActionView done = awaitDone(id);
        assertThat(done.steps()).extracting(ActionStepView::name).doesNotContain("await checkpoint " + job);
        ColocationLedger.Rescale r = ColocationService.rescalesOf(done).get(0);
        assertThat(r.checkpointed()).isFalse();
        assertThat(r.reworkGpuHours())
                .as("40 steps trained since the checkpoint")
                .isPositive();
    }

    @Test
    void aFailedCheckpointFailsTheShrinkAndLeavesTheWorkersAlone() throws Exception {
        clock.advance(Duration.ofMinutes(10));
        String shrink = submit(periodic(engine(PolicyMode.ON)).get(0));
        String commandId = shrink + ":checkpoint:" + job;
        await().atMost(Duration.ofSeconds(10)).until(() -> command(commandId) != null);
        apply(
                job,
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck(commandId, "prepare_exit", TrainerData.AckStatus.REJECTED, "disk full"));
        ActionView failed = await().atMost(Duration.ofSeconds(10))
                .until(() -> store.find(shrink).orElseThrow(), a -> a.state().terminal());
        assertThat(failed.state()).isEqualTo(ActionState.FAILED);
        assertThat(failed.steps())
                .filteredOn(s -> s.name().equals("await checkpoint " + job))
                .singleElement()
                .satisfies(s -> assertThat(s.state()).isEqualTo(StepState.FAILED));
        assertThat(story).doesNotContain("scale 2");
    }

    // ------------------------------------------------------------------------------------------------ support

    private static PolicyEngine engine(PolicyMode mode) {
        Map<PolicyName, PolicySettings.Entry> m = new EnumMap<>(PolicyName.class);
        m.put(PolicyName.COLOCATION, new PolicySettings.Entry(mode, Map.of()));
        PolicyEngine e = new PolicyEngine(new PolicySettings(m));
        e.colocation(new ColocationPolicy(new ColocationRules(List.of(DAY), List.of()), Map.of()));
        return e;
    }

    private List<PolicyDecision> periodic(PolicyEngine engine) throws Exception {
        return runtime
                .read(m -> engine.periodic(m.jobs(), m.fleet(), clock.instant()))
                .get(10, TimeUnit.SECONDS)
                .stream()
                .filter(d -> d.request().target().equals(job))
                .toList();
    }

    private String submit(PolicyDecision d) {
        return actions.submit(d.request(), Caller.unrestricted(REQUESTER), d.idempotencyKey())
                .action()
                .id();
    }

    private ActionView awaitDone(String id) {
        ActionView a = await().atMost(Duration.ofSeconds(15))
                .until(() -> store.find(id).orElseThrow(), v -> v.state().terminal());
        assertThat(a.state()).as("%s: %s, steps %s", id, a.outcome(), a.steps()).isEqualTo(ActionState.SUCCEEDED);
        return a;
    }

    private ActionState state(String id) throws Exception {
        return store.find(id).orElseThrow().state();
    }

    private TrainerCommand command(String id) {
        return channels.sent.stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
    }

    private void rendezvous(int round, List<String> on) throws Exception {
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < on.size(); i++) {
            ps.add(new TrainerData.Participant(on.get(i), i * 8, 8));
        }
        apply(job, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("run-" + round, round, 8 * on.size(), ps));
        if (round > 1) {
            // The trainers restored their checkpoint and train on: the job is running again.
            apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(140 + round, 120.0, 250000.0));
        }
    }

    private String checkpoint(long step) throws Exception {
        String id = "ck-" + step + "-" + UUID.randomUUID().toString().substring(0, 6);
        apply(job, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
        apply(
                job,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id, step, 1_000_000L, 5.0, 5.0, "s3://ckpt/" + id, "sha256:" + id, 8, false, 8));
        story.add("checkpoint " + step + " completed");
        return id;
    }

    private void apply(String subject, EventType type, EventData data) throws Exception {
        runtime.enqueue(
                List.of(new Event(
                        UUID.randomUUID().toString(), "test://colocation", type, subject, clock.instant(), data)),
                Duration.ofSeconds(5));
        runtime.barrier().get(10, TimeUnit.SECONDS);
    }
}
