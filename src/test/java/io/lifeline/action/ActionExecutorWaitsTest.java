package io.lifeline.action;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.StepResult;
import io.lifeline.config.ActionsConfig;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.action.StepState;
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
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.Leaderships;
import io.lifeline.metrics.ActionMetricsForTests;
import io.lifeline.platform.LogContext;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.lifeline.testing.LogLines;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Waiting steps hold no worker: the executor with a single worker, a real PostgreSQL store and model host, and a
 * cluster and trainers played by the test. Actions that wait for a checkpoint all get their command out and leave
 * room for others; each finishes when its checkpoint comes; a cancellation, a stop and a refused eviction are seen
 * at the next re-check.
 */
class ActionExecutorWaitsTest {

    private static final Clock CLOCK = Clock.systemUTC();

    private static EmbeddedPostgres server;
    private static AgroalDataSource db;

    private final ScriptedChannels channels = new ScriptedChannels();
    /** Commands the trainers' channels took. */
    private final List<TrainerCommand> commands = channels.sent;

    private final FakeCluster cluster = new FakeCluster();
    private CountingStore store;
    private ModelRuntime runtime;
    private Leadership leadership;
    private ActionExecutor executor;

    /** Counts the store's step writes and cancellation checks (one cancellation check per re-check of a wait). */
    static final class CountingStore extends ActionStore {
        final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> cancelChecks = new ConcurrentHashMap<>();

        CountingStore(AgroalDataSource db) {
            super(db, new ObjectMapper());
        }

        @Override
        public void saveStep(String actionId, String target, ActionStepView step, String actor, long term) {
            writes.computeIfAbsent(
                            actionId + " " + step.name() + " " + step.state().wire(), k -> new AtomicInteger())
                    .incrementAndGet();
            super.saveStep(actionId, target, step, actor, term);
        }

        @Override
        public boolean cancelRequested(String id) {
            cancelChecks.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            return super.cancelRequested(id);
        }

        int writes(String actionId, String step, StepState state) {
            AtomicInteger n = writes.get(actionId + " " + step + " " + state.wire());
            return n == null ? 0 : n.get();
        }

        int cancelChecks(String actionId) {
            AtomicInteger n = cancelChecks.get(actionId);
            return n == null ? 0 : n.get();
        }
    }

    /** A cluster whose pods go when evicted; a pod named in {@link #refusals} is refused that many times first. */
    static final class FakeCluster implements ClusterActions {
        /** The worker count each job was last scaled to. */
        final Map<String, Integer> scaled = new java.util.concurrent.ConcurrentHashMap<>();

        final Map<String, List<PodRef>> pods = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> refusals = new ConcurrentHashMap<>();
        final Set<String> uncordoned = ConcurrentHashMap.newKeySet();

        @Override
        public boolean available() {
            return true;
        }

        /** Cordon calls still to answer "API server unavailable", per node. */
        final Map<String, AtomicInteger> unavailable = new ConcurrentHashMap<>();

        @Override
        public ClusterOutcome cordon(String node) {
            AtomicInteger down = unavailable.get(node);
            if (down != null && down.getAndDecrement() > 0) {
                return ClusterOutcome.of(
                        Result.RETRY_LATER,
                        "cordon node " + node + ": API server unavailable (HTTP 503): service unavailable");
            }
            return ClusterOutcome.of(Result.PATCHED, "cordoned");
        }

        @Override
        public ClusterOutcome uncordon(String node) {
            uncordoned.add(node);
            return ClusterOutcome.of(Result.PATCHED, "uncordoned");
        }

        @Override
        public List<PodRef> trainingPodsOn(String node) {
            return List.copyOf(pods.getOrDefault(node, List.of()));
        }

        @Override
        public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
            AtomicInteger refuse = refusals.get(pod.name());
            if (refuse != null && refuse.getAndDecrement() > 0) {
                return ClusterOutcome.of(Result.RETRY_LATER, "disruption budget");
            }
            pods.replaceAll(
                    (node, list) -> list.stream().filter(p -> !p.equals(pod)).toList());
            return ClusterOutcome.of(Result.EVICTED, "evicted");
        }

        @Override
        public ClusterOutcome scaleWorkers(String job, int workers) {
            scaled.put(job, workers);
            return ClusterOutcome.of(Result.PATCHED, "scaled");
        }

        @Override
        public ClusterOutcome suspend(String job, boolean suspended) {
            return ClusterOutcome.of(Result.PATCHED, "suspended");
        }

        @Override
        public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
            return ClusterOutcome.of(Result.PATCHED, "annotated");
        }
    }

    /**
     * The trainers' channels, played by the test: one channel, "Kafka topic", answering each attempt a little later
     * on another thread (as the brokers do); an attempt fails while the command's job is in {@link #down} or
     * {@link #failures} counts down; acknowledgements the channel recorded are in {@link #acks}.
     */
    static final class ScriptedChannels implements TrainerCommandSink {
        static final String CHANNEL = "Kafka topic";
        static final String REASON = "TimeoutException: Topic lifeline.commands not present in metadata after 2000 ms.";
        final List<TrainerCommand> sent = new CopyOnWriteArrayList<>();
        final Map<String, List<Instant>> attempts = new ConcurrentHashMap<>();
        final Set<String> down = ConcurrentHashMap.newKeySet();
        /** Jobs whose sends are never answered (a producer stuck waiting for metadata). */
        final Set<String> unanswered = ConcurrentHashMap.newKeySet();

        final AtomicInteger failures = new AtomicInteger();
        final Map<String, CommandAckView> acks = new ConcurrentHashMap<>();
        /** The log context each attempt was made in ("job node action", "-" for a key not set), by command. */
        final Map<String, List<String>> contexts = new ConcurrentHashMap<>();

        @Override
        public CompletionStage<SendAttempt> send(TrainerCommand c, Set<String> confirmed) {
            attempts.computeIfAbsent(c.id(), k -> new CopyOnWriteArrayList<>()).add(CLOCK.instant());
            LogContext.Snapshot context = LogContext.current();
            contexts.computeIfAbsent(c.id(), k -> new CopyOnWriteArrayList<>())
                    .add(Stream.of(context.job(), context.node(), context.action())
                            .map(v -> Objects.requireNonNullElse(v, "-"))
                            .collect(Collectors.joining(" ")));
            if (unanswered.contains(c.job())) {
                return new CompletableFuture<>();
            }
            boolean fails = down.contains(c.job()) || failures.getAndDecrement() > 0;
            return CompletableFuture.supplyAsync(
                    () -> {
                        if (fails) {
                            return new SendAttempt(Set.of(), Map.of(CHANNEL, REASON));
                        }
                        sent.add(c);
                        return SendAttempt.confirmed(CHANNEL);
                    },
                    CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS));
        }

        @Override
        public Optional<CommandAckView> acknowledgement(String job, String commandId) {
            return Optional.ofNullable(acks.get(commandId));
        }

        List<Instant> attempts(String commandId) {
            return attempts.getOrDefault(commandId, List.of());
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
            return 1;
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
                .setDataDirectory(Files.createTempDirectory("lifeline-waits"))
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
    void startExecutor() {
        channels.failures.set(0);
        store = new CountingStore(db);
        runtime = ModelRuntimes.start(CLOCK);
        leadership = Leaderships.of(db, CONFIG);
        executor = new ActionExecutor(
                store,
                cluster,
                channels,
                runtime,
                leadership,
                CONFIG,
                CLOCK,
                ActionMetricsForTests.of(new SimpleMeterRegistry()));
        executor.start();
        await().atMost(Duration.ofSeconds(10)).until(executor::isLeader);
    }

    @AfterEach
    void stopExecutor() {
        executor.stop();
        Leaderships.close(leadership);
        ModelRuntimes.stop(runtime);
    }

    // ------------------------------------------------------------------------------------------------ tests

    @Test
    void actionsWaitingForCheckpointsShareOneWorkerAndEachEndsWithItsCheckpoint() throws Exception {
        String jobA = job("wait-a");
        String jobB = job("wait-b");
        String a = submit(ActionKind.CHECKPOINT_NOW, jobA);
        String b = submit(ActionKind.CHECKPOINT_NOW, jobB);

        // One worker, two waits: both commands are out before either checkpoint exists.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sent(a + ":checkpoint:" + jobA) && sent(b + ":checkpoint:" + jobB));
        assertThat(state(a)).isEqualTo(ActionState.RUNNING);
        assertThat(state(b)).isEqualTo(ActionState.RUNNING);
        // And a third action is not kept waiting behind them.
        String node = unique("node");
        String c = submit(ActionKind.UNCORDON, node);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(c) == ActionState.SUCCEEDED);
        assertThat(state(a)).isEqualTo(ActionState.RUNNING);
        assertThat(state(b)).isEqualTo(ActionState.RUNNING);

        checkpoint(jobA, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
        assertThat(state(b)).isEqualTo(ActionState.RUNNING);
        checkpoint(jobB, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(b) == ActionState.SUCCEEDED);

        ActionView done = store.find(a).orElseThrow();
        assertThat(done.outcome()).isEqualTo("checkpoint of " + jobA + " completed");
        assertThat(done.steps())
                .extracting(ActionStepView::name, ActionStepView::state, ActionStepView::seq)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("request checkpoint " + jobA, StepState.DONE, 0),
                        org.assertj.core.groups.Tuple.tuple("await checkpoint " + jobA, StepState.DONE, 1));
        assertThat(store.cancelChecks(a))
                .as("re-checks of the wait, each asking for a cancellation")
                .isGreaterThan(2);
        assertThat(store.writes(a, "await checkpoint " + jobA, StepState.RUNNING))
                .as("the wait written RUNNING once")
                .isEqualTo(1);
        assertThat(commands.stream().filter(cmd -> cmd.id().startsWith(a)).count())
                .isEqualTo(1);
    }

    @Test
    void aCancelledWaitEndsCancelledAtItsNextRecheck() throws Exception {
        String job = job("cancel");
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, "await checkpoint " + job)
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));

        store.requestCancel(a);

        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.CANCELLED);
        ActionStepView wait = step(a, "await checkpoint " + job).orElseThrow();
        assertThat(wait.state()).isEqualTo(StepState.FAILED);
        assertThat(wait.detail()).isEqualTo("cancelled");
        assertThat(step(a, "request checkpoint " + job).orElseThrow().state()).isEqualTo(StepState.DONE);
    }

    @Test
    void aWaitAcrossAStopAndStartResumesFromTheStoredStepsAndFinishes() throws Exception {
        String job = job("restart");
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, "await checkpoint " + job)
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));

        executor.stop();
        int checks = store.cancelChecks(a);
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(store.cancelChecks(a)).as("no re-check once stopped").isEqualTo(checks);
        assertThat(state(a)).isEqualTo(ActionState.RUNNING);

        executor.start();
        await().atMost(Duration.ofSeconds(10)).until(executor::isLeader);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> store.writes(a, "await checkpoint " + job, StepState.RUNNING) == 2);
        assertThat(step(a, "await checkpoint " + job).orElseThrow().detail()).isEqualTo("resumed after a restart");
        checkpoint(job, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
        assertThat(commands.stream().filter(cmd -> cmd.id().startsWith(a)).count())
                .as("the command went once")
                .isEqualTo(1);
    }

    @Test
    void aWaitIsDroppedWhenLeadershipGoesAndTakenUpFromTheStoreWhenItComesBack() throws Exception {
        String job = job("leader");
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, "await checkpoint " + job)
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));

        leadership.stop();
        TimeUnit.MILLISECONDS.sleep(150);
        int checks = store.cancelChecks(a);
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(store.cancelChecks(a)).as("no re-check without leadership").isEqualTo(checks);

        leadership.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> store.writes(a, "await checkpoint " + job, StepState.RUNNING) == 2);
        checkpoint(job, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
        assertThat(commands.stream().filter(cmd -> cmd.id().startsWith(a)).count())
                .isEqualTo(1);
    }

    @Test
    void aRefusedEvictionIsTriedAgainWithoutHoldingTheWorkerAndCountsItsRefusals() throws Exception {
        String node = unique("node");
        ClusterActions.PodRef first = new ClusterActions.PodRef("ml", unique("pod"), "ml/x");
        ClusterActions.PodRef guarded = new ClusterActions.PodRef("ml", unique("pod"), "ml/x");
        cluster.pods.put(node, List.of(first, guarded));
        cluster.refusals.put(guarded.name(), new AtomicInteger(3));

        String drain = submit(ActionKind.DRAIN, node);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(drain, "evict ml/" + guarded.name())
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));
        String other = unique("other-node");
        String c = submit(ActionKind.UNCORDON, other);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(c) == ActionState.SUCCEEDED);

        await().atMost(Duration.ofSeconds(10)).until(() -> state(drain) == ActionState.SUCCEEDED);
        assertThat(step(drain, "evict ml/" + guarded.name()).orElseThrow().detail())
                .isEqualTo("evicted after 3 refusal(s)");
        assertThat(store.find(drain).orElseThrow().outcome())
                .as("the pod evicted before the refusals counts too")
                .startsWith(node + " drained: 2 pod(s) evicted (2 training pod(s))");
    }

    @Test
    void aCordonWhileTheApiServerIsUnavailableIsTriedAgainUntilItAnswers() throws Exception {
        String node = unique("node");
        cluster.unavailable.put(node, new AtomicInteger(3));
        String drain = submit(ActionKind.DRAIN, node);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(drain, "cordon")
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));
        // The worker is free meanwhile.
        String c = submit(ActionKind.UNCORDON, unique("other-node"));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(c) == ActionState.SUCCEEDED);

        await().atMost(Duration.ofSeconds(10)).until(() -> state(drain) == ActionState.SUCCEEDED);
        assertThat(step(drain, "cordon").orElseThrow().detail()).isEqualTo("patched: cordoned");
        assertThat(cluster.unavailable.get(node).get())
                .as("three refused attempts and the one that went through")
                .isEqualTo(-1);
    }

    @Test
    void aCordonStillUnavailableAtTheDeadlineFailsWithTheLastReason() throws Exception {
        String node = unique("node");
        cluster.unavailable.put(node, new AtomicInteger(Integer.MAX_VALUE));
        String drain = submit(ActionKind.DRAIN, node, Duration.ofMillis(1500), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(drain) == ActionState.FAILED);
        assertThat(step(drain, "cordon").orElseThrow().detail())
                .isEqualTo("still refused at the deadline: cordon node " + node
                        + ": API server unavailable (HTTP 503): service unavailable");
    }

    // ------------------------------------------------------------------------------------- confirmed commands

    @Test
    void aFailedCommandSendIsTriedAgainWithBackOffAndTheStepRecordsWhatItTook() throws Exception {
        String job = job("retry");
        channels.failures.set(3);
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        String request = "request checkpoint " + job;
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        step(a, request).map(s -> s.state() == StepState.DONE).orElse(false));

        ActionStepView done = step(a, request).orElseThrow();
        assertThat(done.detail())
                .startsWith("checkpoint_now sent to the Kafka topic at ")
                .contains("after 4 attempts")
                .contains(ScriptedChannels.REASON)
                .endsWith("; no good checkpoint yet")
                .doesNotContain("step -1");
        StepResult.CheckpointRequested r = (StepResult.CheckpointRequested) done.result();
        assertThat(r.sent().attempts()).isEqualTo(4);
        assertThat(r.sent().channels()).containsExactly(ScriptedChannels.CHANNEL);
        assertThat(r.sent().lastError()).isEqualTo("Kafka topic: " + ScriptedChannels.REASON);
        assertThat(r.sent().sentAt()).isNotNull();
        assertThat(store.writes(a, request, StepState.RUNNING))
                .as("started, then each failed attempt recorded")
                .isEqualTo(4);
        List<Instant> tries = channels.attempts(a + ":checkpoint:" + job);
        assertThat(tries).hasSize(4);
        // The pauses double from 50 ms up to 200 ms: never shorter than that.
        long[] least = {50, 100, 200};
        for (int i = 1; i < tries.size(); i++) {
            assertThat(Duration.between(tries.get(i - 1), tries.get(i)).toMillis())
                    .as("pause before attempt " + (i + 1))
                    .isGreaterThanOrEqualTo(least[i - 1]);
        }
        assertThat(commands.stream().filter(c -> c.id().startsWith(a)).count())
                .as("taken once")
                .isEqualTo(1);

        checkpoint(job, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
    }

    @Test
    void aCommandNotSentByTheDeadlineFailsItsStepWithTheReason() throws Exception {
        String job = job("unsent");
        channels.down.add(job);
        String a = submit(ActionKind.CHECKPOINT_NOW, job, Duration.ofMillis(1500), null);
        String request = "request checkpoint " + job;
        // Meanwhile the running step says what is going on.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, request)
                        .map(s -> s.state() == StepState.RUNNING && s.detail().startsWith("attempt "))
                        .orElse(false));
        assertThat(step(a, request).orElseThrow().detail())
                .contains("failed: Kafka topic: " + ScriptedChannels.REASON)
                .contains("; next in ");
        assertThat(step(a, request).orElseThrow().result()).isInstanceOf(StepResult.CommandPending.class);

        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.FAILED);
        ActionStepView failed = step(a, request).orElseThrow();
        assertThat(failed.state()).isEqualTo(StepState.FAILED);
        // Either every attempt failed in time, or the last one was still unanswered at the deadline (a busy machine):
        // both name the deadline and the last error.
        assertThat(failed.detail())
                .matches("checkpoint_now not (sent by the deadline after \\d+ attempt\\(s\\)"
                        + "|confirmed by the deadline: attempt \\d+ still unanswered; last error): .*")
                .endsWith("Kafka topic: " + ScriptedChannels.REASON);
        assertThat(store.find(a).orElseThrow().outcome())
                .startsWith(request + ": checkpoint_now not ")
                .contains("by the deadline");
        assertThat(step(a, "await checkpoint " + job)).as("nothing to wait for").isEmpty();
        assertThat(commands.stream().filter(c -> c.id().startsWith(a))).isEmpty();
    }

    @Test
    void aSendStillUnansweredAtTheDeadlineFailsTheStepThen() throws Exception {
        String job = job("unanswered");
        channels.unanswered.add(job);
        String a = submit(ActionKind.CHECKPOINT_NOW, job, Duration.ofMillis(800), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.FAILED);
        assertThat(step(a, "request checkpoint " + job).orElseThrow().detail())
                .isEqualTo("checkpoint_now not confirmed by the deadline: attempt 1 still unanswered");
    }

    @Test
    void aDrainSendsEveryJobsCommandAndCordonsWhileOneJobsSendKeepsFailing() throws Exception {
        String stuck = job("drain-stuck");
        String fine = job("drain-fine");
        String node = unique("node");
        channels.down.add(stuck);
        String d = submit(
                ActionKind.DRAIN,
                node,
                Duration.ofSeconds(120),
                new Impact(1.0, 60L, 16, List.of(stuck, fine), List.of(node), true, List.of()));

        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        step(d, "cordon").map(s -> s.state() == StepState.DONE).orElse(false));
        assertThat(sent(d + ":checkpoint:" + fine))
                .as("the other job's command is not held back")
                .isTrue();
        // Its step is written DONE once the send is confirmed, which on a loaded machine may come after the cordon.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(d, "request checkpoint " + fine)
                        .map(s -> s.state() == StepState.DONE)
                        .orElse(false));
        assertThat(step(d, "request checkpoint " + stuck).orElseThrow().state()).isEqualTo(StepState.RUNNING);
        assertThat(step(d, "await checkpoint " + fine))
                .as("awaited once every command is out")
                .isEmpty();

        channels.down.remove(stuck);
        await().atMost(Duration.ofSeconds(10)).until(() -> sent(d + ":checkpoint:" + stuck));
        checkpoint(stuck, 200);
        checkpoint(fine, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(d) == ActionState.SUCCEEDED);
        assertThat(step(d, "request checkpoint " + stuck).orElseThrow().detail())
                .contains("attempts (last error: ");
    }

    @Test
    void staggeredNoticesForNodesOfOneElasticJobMakeOneShrinkToTheNodesThatStay() throws Exception {
        String ns = unique("staggered");
        String job = ns + "/llm"; // four nodes, elastic 1..4
        List<String> nodes = List.of(unique("gpu"), unique("gpu"), unique("gpu"), unique("gpu"));
        ElasticPolicy elastic = new ElasticPolicy(1, 4, 8, 3);
        apply(job, EventType.JOB_SUBMITTED, new JobData.Submitted(ns, "alice", "high", elastic, 8, 1800L));
        apply(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue"));
        List<TrainerData.Participant> ps = new ArrayList<>();
        nodes.forEach(n -> ps.add(new TrainerData.Participant(n, ps.size() * 8, 8)));
        apply(job, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("run-1", 1, 32, ps));
        apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 120.0, 250000.0));
        for (String node : nodes.subList(1, 3)) { // two of its four nodes reclaimed a few seconds apart
            NodeData spot = new NodeData.Registered("p", CapacityType.SPOT, null, null, 8, null);
            apply(node, EventType.NODE_REGISTERED, spot);
            Instant deadline = CLOCK.instant().plus(Duration.ofMinutes(2));
            NodeData notice = new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", deadline);
            apply(node, EventType.NODE_INTERRUPTION_NOTICE, notice);
        }
        Impact impact = new Impact(1.0, 60L, 8, List.of(job), List.of(nodes.get(1)), true, List.of());
        String d = submit(ActionKind.DRAIN, nodes.get(1), Duration.ofSeconds(120), impact);
        await().atMost(Duration.ofSeconds(10)).until(() -> sent(d + ":checkpoint:" + job));
        checkpoint(job, 101);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(d) == ActionState.SUCCEEDED);
        assertThat(cluster.scaled.get(job)).as("past both").isEqualTo(2);
    }

    @Test
    void aDrainRightAfterACheckpointStillHasTheRanksSaveAndHold() throws Exception {
        // Nothing new since the checkpoint now, but the ranks go on training until the node goes: without a
        // prepare_exit they would not hold, and every step until the kill would be lost.
        String job = job("drain-fresh");
        checkpoint(job, 100);
        String node = unique("node");
        String d = submit(
                ActionKind.DRAIN,
                node,
                Duration.ofSeconds(120),
                new Impact(0.0, 0L, 8, List.of(job), List.of(node), true, List.of()));

        await().atMost(Duration.ofSeconds(10)).until(() -> sent(d + ":checkpoint:" + job));
        ActionStepView request = step(d, "request checkpoint " + job).orElseThrow();
        assertThat(request.state()).isEqualTo(StepState.DONE);
        assertThat(request.detail())
                .startsWith("prepare_exit ")
                .endsWith("newest good checkpoint surviving " + node + " at step 100");
        checkpoint(job, 101);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(d) == ActionState.SUCCEEDED);
    }

    @Test
    void theTrainersAcknowledgementEndsTheRetriesOfAChannelThatIsDown() throws Exception {
        String job = job("acked");
        channels.down.add(job);
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        String id = a + ":checkpoint:" + job;
        await().atMost(Duration.ofSeconds(10)).until(() -> channels.attempts(id).size() >= 2);
        // Recorded by the agent queue (on any replica): the trainers have the command.
        channels.acks.put(
                id, new CommandAckView(id, "checkpoint_now", TrainerData.AckStatus.ACCEPTED, null, CLOCK.instant()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, "request checkpoint " + job)
                        .map(s -> s.state() == StepState.DONE)
                        .orElse(false));
        ActionStepView done = step(a, "request checkpoint " + job).orElseThrow();
        assertThat(done.detail()).startsWith("checkpoint_now acknowledged by the trainers at ");
        assertThat(((StepResult.CheckpointRequested) done.result()).sent().acknowledged())
                .isTrue();
        checkpoint(job, 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
    }

    @Test
    void aRefusalOnlyAChannelRecordedFailsTheWaitForTheCheckpoint() throws Exception {
        String job = job("refused");
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        String id = a + ":checkpoint:" + job;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> step(a, "await checkpoint " + job)
                        .map(s -> s.state() == StepState.RUNNING)
                        .orElse(false));
        // Acknowledged through an agent that polls another replica: not in this replica's model.
        channels.acks.put(
                id,
                new CommandAckView(
                        id, "checkpoint_now", TrainerData.AckStatus.REJECTED, "no space left", CLOCK.instant()));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.FAILED);
        assertThat(store.find(a).orElseThrow().outcome())
                .isEqualTo("await checkpoint " + job + ": the trainers of " + job
                        + " rejected the command: no space left");
    }

    // ------------------------------------------------------------------------------------------------ log context

    @Test
    void everyRunOfAnActionsStepsLogsWithTheActionAndItsJobWhicheverThreadRunsIt() throws Exception {
        String job = job("context");
        // Two failed sends: the step runs again at two re-checks, each handed from the timer to a worker.
        channels.failures.set(2);
        String a;
        List<LogLines.Line> lines;
        try (LogLines log = LogLines.capture("io.lifeline.action")) {
            a = submit(ActionKind.CHECKPOINT_NOW, job);
            await().atMost(Duration.ofSeconds(10)).until(() -> sent(a + ":checkpoint:" + job));
            checkpoint(job, 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
            // The action's last line is written after its state: wait for it.
            lines = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> log.about(job),
                            l -> l.stream().anyMatch(x -> x.message().contains(a + " on " + job + " succeeded")));
        }
        assertThat(channels.contexts.get(a + ":checkpoint:" + job))
                .as("every attempt, at the first run and the re-checks")
                .containsExactly(job + " - " + a, job + " - " + a, job + " - " + a);
        assertThat(lines)
                .extracting(LogLines.Line::message)
                .anySatisfy(m ->
                        assertThat(m).startsWith("Step 'request checkpoint " + job + "' done: checkpoint_now sent"))
                .anySatisfy(m -> assertThat(m).startsWith("Step 'await checkpoint " + job + "' done"));
        assertThat(lines)
                .allSatisfy(l -> assertThat(l.context())
                        .as(l.message())
                        .isEqualTo(Map.of(LogContext.JOB, job, LogContext.ACTION, a)));
    }

    @Test
    void aDrainsStepsLogWithItsNodeAndItsStepsAboutOneJobWithThatJobToo() throws Exception {
        String job = job("context-drain");
        String node = unique("node");
        String d;
        List<LogLines.Line> lines;
        try (LogLines log = LogLines.capture(StepRunner.class.getName())) {
            d = submit(
                    ActionKind.DRAIN,
                    node,
                    Duration.ofSeconds(120),
                    new Impact(1.0, 60L, 8, List.of(job), List.of(node), true, List.of()));
            await().atMost(Duration.ofSeconds(10)).until(() -> sent(d + ":checkpoint:" + job));
            checkpoint(job, 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> state(d) == ActionState.SUCCEEDED);
            lines = log.lines();
        }
        assertThat(channels.contexts.get(d + ":checkpoint:" + job)).containsExactly(job + " " + node + " " + d);
        assertThat(lines)
                .filteredOn(l -> l.message().startsWith("Step 'cordon'"))
                .singleElement()
                .satisfies(l -> assertThat(l.context()).isEqualTo(Map.of(LogContext.NODE, node, LogContext.ACTION, d)));
        assertThat(lines)
                .filteredOn(l -> l.message().contains(node) || l.message().contains(job))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l.context())
                        .as(l.message())
                        .containsEntry(LogContext.NODE, node)
                        .containsEntry(LogContext.ACTION, d));
    }

    @Test
    void noActionCodeSleepsOnAThread() {
        noClasses()
                .that()
                .resideInAPackage("io.lifeline.action..")
                .should()
                .callMethod(Thread.class, "sleep", long.class)
                .orShould()
                .callMethod(Thread.class, "sleep", long.class, int.class)
                .orShould()
                .callMethod(TimeUnit.class, "sleep", long.class)
                .because("a waiting step ends its run and is checked again later, holding no worker")
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.lifeline.action"));
    }

    // ------------------------------------------------------------------------------------------------ support

    private static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A running job known to the model, with no checkpoint yet; its name. */
    @Test
    void aLeaderDeposedWhileAnActionWaitsStopsItAndTheNextLeadershipFinishesItWithoutRepeatingASteps()
            throws Exception {
        String job = job("fenced");
        String a = submit(ActionKind.CHECKPOINT_NOW, job);
        await().atMost(Duration.ofSeconds(10)).until(() -> sent(a + ":checkpoint:" + job));
        long term = leadership.term();
        assertThat(term).isPositive();

        // Another replica takes the lease over, as it would after this one was paused past its lease.
        sql("UPDATE leader_term SET holder = 'replica-b', term = term + 1, expires_at = now() + interval '1 hour'"
                + " WHERE name = 'lifeline'");
        // A write stamped with the old term is refused, whatever this replica still believes.
        ActionStepView late = new ActionStepView(9, "late step", StepState.DONE, CLOCK.instant(), CLOCK.instant(), "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.saveStep(a, job, late, "token:test", term))
                .isInstanceOf(io.lifeline.eventlog.Fence.FencedException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.transition(
                        a, ActionState.RUNNING, ActionState.SUCCEEDED, "late", "token:test", CLOCK.instant(), term))
                .isInstanceOf(io.lifeline.eventlog.Fence.FencedException.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> !executor.isLeader());
        checkpoint(job, 200);
        // Nobody leads here now: the action stays as it was, and nothing ran on the deposed replica.
        await().during(Duration.ofMillis(800))
                .atMost(Duration.ofSeconds(3))
                .until(() -> state(a) == ActionState.RUNNING);
        assertThat(step(a, "late step")).isEmpty();

        // The other replica's lease ends; this one leads again under a new term and finishes from the stored steps.
        sql("UPDATE leader_term SET expires_at = now() WHERE name = 'lifeline'");
        await().atMost(Duration.ofSeconds(10)).until(() -> leadership.term() > term + 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
        assertThat(commands.stream()
                        .filter(c -> c.id().equals(a + ":checkpoint:" + job))
                        .count())
                .as("the checkpoint command was sent once")
                .isEqualTo(1);
        assertThat(store.writes(a, "request checkpoint " + job, StepState.DONE))
                .as("no step ran twice")
                .isEqualTo(1);
    }

    @Test
    void aRestoreHandsWhatItsCheckFoundOnTypedAndOneLeftByAnEarlierVersionGoesOnFromItsText() throws Exception {
        String job = job("restore");
        String ckpt = checkpoint(job, 200);
        Instant now = CLOCK.instant();
        ActionView fresh = store.insert(new ActionStore.NewAction(
                        unique("act"),
                        ActionKind.RESTORE,
                        job,
                        Map.of("checkpointId", ckpt),
                        "test",
                        "token:test",
                        null,
                        now,
                        now.plusSeconds(120),
                        null,
                        ActionState.PENDING,
                        "pending"))
                .action();
        executor.schedule(fresh);
        await().atMost(Duration.ofSeconds(10)).until(() -> sent(fresh.id() + ":restore"));
        assertThat(step(fresh.id(), "check checkpoint").orElseThrow().result())
                .isEqualTo(new StepResult.CheckpointChecked(ckpt, 0, "s3://ckpt/" + ckpt));
        assertThat(commands)
                .filteredOn(c -> c.id().equals(fresh.id() + ":restore"))
                .singleElement()
                .satisfies(c -> assertThat(c.params()).containsEntry("uri", "s3://ckpt/" + ckpt));
        apply(job, EventType.TRAINER_RESTORED, new TrainerData.Restored(ckpt, 200, "run-2"));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(fresh.id()) == ActionState.SUCCEEDED);

        // The earlier version stopped mid-restore: its check recorded as text in the step's detail, no typed result.
        executor.stop();
        String a = store.insert(new ActionStore.NewAction(
                        unique("act"),
                        ActionKind.RESTORE,
                        job,
                        Map.of("checkpointId", ckpt),
                        "test",
                        "token:test",
                        null,
                        now,
                        now.plusSeconds(120),
                        null,
                        ActionState.RUNNING,
                        "running"))
                .action()
                .id();
        sql("INSERT INTO action_step (action_id, seq, name, state, started_at, ended_at, detail) VALUES ('" + a
                + "', 0, 'check checkpoint', 'done', now(), now(), 'restoreCount=1 uri=s3://ckpt/old-place')");
        executor.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> sent(a + ":restore"));
        assertThat(commands)
                .filteredOn(c -> c.id().equals(a + ":restore"))
                .singleElement()
                .as("read from the text")
                .satisfies(c -> assertThat(c.params()).containsEntry("uri", "s3://ckpt/old-place"));
        apply(job, EventType.TRAINER_RESTORED, new TrainerData.Restored(ckpt, 200, "run-3"));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(a) == ActionState.SUCCEEDED);
        assertThat(store.writes(a, "check checkpoint", StepState.RUNNING))
                .as("the check did not run again")
                .isZero();
    }

    private static void sql(String statement) throws SQLException {
        try (java.sql.Connection c = db.getConnection();
                java.sql.Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }

    private String job(String base) throws Exception {
        String ns = unique(base);
        String job = ns + "/llm";
        apply(job, EventType.JOB_SUBMITTED, new JobData.Submitted(ns, "alice", "high", null, 8, 1800L));
        apply(job, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted("wl", "queue"));
        apply(
                job,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run-1", 1, 8, List.of(new TrainerData.Participant(unique("gpu"), 0, 8))));
        apply(job, EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 120.0, 250000.0));
        return job;
    }

    /** A completed checkpoint of the job at {@code step}, stored at {@code s3://ckpt/<id>}; its id. */
    private String checkpoint(String job, long step) throws Exception {
        String id = unique("ck");
        apply(job, EventType.TRAINER_CHECKPOINT_STARTED, new TrainerData.CheckpointStarted(id, step, false));
        apply(
                job,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted(
                        id, step, 1_000_000L, 5.0, 5.0, "s3://ckpt/" + id, "sha256:" + id, 8, false, 8));
        return id;
    }

    private void apply(String subject, EventType type, EventData data) throws Exception {
        runtime.enqueue(
                List.of(new Event(UUID.randomUUID().toString(), "test://waits", type, subject, CLOCK.instant(), data)),
                Duration.ofSeconds(5));
        runtime.barrier().get(10, TimeUnit.SECONDS);
    }

    /** Stores an action as the service would and hands it to the executor; its id. */
    private String submit(ActionKind kind, String target) throws SQLException {
        return submit(kind, target, Duration.ofSeconds(120), null);
    }

    private String submit(ActionKind kind, String target, Duration deadline, Impact impact) throws SQLException {
        Instant now = CLOCK.instant();
        ActionStore.Inserted in = store.insert(new ActionStore.NewAction(
                unique("act"),
                kind,
                target,
                Map.of(),
                "test",
                "token:test",
                null,
                now,
                now.plus(deadline),
                impact,
                ActionState.PENDING,
                "pending"));
        assertThat(in.kind()).isEqualTo(ActionStore.Inserted.Kind.CREATED);
        executor.schedule(in.action());
        return in.action().id();
    }

    private boolean sent(String commandId) {
        return commands.stream().anyMatch(c -> c.id().equals(commandId));
    }

    private ActionState state(String id) throws SQLException {
        return store.find(id).orElseThrow().state();
    }

    private Optional<ActionStepView> step(String id, String name) throws SQLException {
        return store.find(id).orElseThrow().steps().stream()
                .filter(s -> s.name().equals(name))
                .findFirst();
    }
}
