package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.action.ActionService;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.demo.runtime.DemoRunner;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.testing.BenchmarkReport;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The notice policy on the whole loop: the demo simulator's fleet feeds the real ingest pipeline and model, the
 * notice policy submits a drain, the real executor runs it against the simulated cluster (cordon, evict, scale)
 * and trainers (prepare_exit). One elastic job on three spot nodes, whose checkpoint blocks its trainers for 30 s,
 * gets a 120 s notice on one of its nodes. With the policy on, the checkpoint completes before the eviction and no
 * work is lost; with it off, the node is terminated under the job and the work since its last checkpoint is lost.
 *
 * <p>The policy-on run keeps the simulation at real time (speed 1): the policy and the executor measure deadlines
 * with the application clock, and the simulated trainers must answer in the same time. The policy-off run involves
 * no deadline at all, so it replays the same scenario dated in the recent past, as fast as ingest takes it: the
 * model's accounting of an interruption depends on event times only.
 */
@QuarkusTest
class NoticePolicySimulationTest {

    private static final String REQUESTER = PolicyName.NOTICE_CHECKPOINT_DRAIN.requester();

    @Inject
    DemoRunner runner;

    @Inject
    ActionService actions;

    @Inject
    DefaultPolicyService policies;

    @Inject
    ModelRuntime runtime;

    @Inject
    IngestGateway gateway;

    /** A trainer.progress of a job of this test, as applied to the model. */
    record Progress(String job, Instant at, long step) {}

    /** Progress of this test's jobs; the listener stays registered for the application's life (it only filters). */
    private static final List<Progress> PROGRESS = new CopyOnWriteArrayList<>();

    private static final AtomicBoolean LISTENING = new AtomicBoolean();

    private PolicyView before;

    @BeforeEach
    void remember() {
        before = policies.get(PolicyName.NOTICE_CHECKPOINT_DRAIN);
        if (LISTENING.compareAndSet(false, true)) {
            runtime.addApplyListener((e, outcome, m) -> {
                if (e.data() instanceof TrainerData.Progress p && e.subject().startsWith("policy-")) {
                    PROGRESS.add(new Progress(e.subject(), e.time(), p.step()));
                }
            });
        }
    }

    @AfterEach
    void restore() {
        runner.stop();
        policies.update(PolicyName.NOTICE_CHECKPOINT_DRAIN, before.mode(), before.overrides(), admin());
    }

    /** One elastic job (2 to 3 nodes of 8 GPUs) on a pool of three spot nodes; a save blocks it for 30 s. */
    static Scenario scenario(String pool, String namespace) {
        Scenario.Pool spot =
                new Scenario.Pool(pool, CapacityType.SPOT, "us-east-1a", "p5.48xlarge", null, 3, 8, 0, 120);
        Scenario.Checkpointing ckpt =
                new Scenario.Checkpointing(1800, 30, false, 30, 50, 5, "s3://ckpt/" + namespace, 0);
        Scenario.Job job = new Scenario.Job(
                namespace,
                "trainer",
                "alice",
                "high",
                "gpu",
                List.of(pool),
                2,
                3,
                8,
                100,
                0,
                1000,
                1.0,
                512,
                2048,
                ckpt);
        return new Scenario(11, 10, 5, 0, 0, 900, 900, null, List.of(spot), List.of(job));
    }

    @Test
    void noticeWithThePolicyOnCheckpointsThenDrainsAndLosesNoWork() throws Exception {
        String pool = "policy-on-spot";
        String job = "policy-on/trainer";
        policies.update(
                PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF, Map.of("pool:" + pool, PolicyMode.ON), admin());
        // Two minutes of history first (registration, admission, rendezvous, restore take up to 80 s), then real time.
        runner.start(scenario(pool, "policy-on"), 1.0, Duration.ofSeconds(120));

        String node = awaitRunningOnThreeNodes(job);
        // Let it train a little past the start, so that there is work a careless stop would lose.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> true);
        Instant noticed = Instant.now();
        runner.onCluster(s -> {
            s.injectNotice(node);
            return null;
        });

        ActionView drain = await().atMost(Duration.ofSeconds(20))
                .until(() -> drainOf(node), Optional::isPresent)
                .get();
        assertThat(drain.requestedBy()).isEqualTo(REQUESTER);
        ActionView done = await().atMost(Duration.ofSeconds(100))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> actions.find(drain.id()).orElseThrow(),
                        a -> a.state().terminal());
        assertThat(done.state())
                .as("drain outcome: %s, steps %s", done.outcome(), done.steps())
                .isEqualTo(ActionState.SUCCEEDED);

        ActionStepView checkpointed = step(done, "await checkpoint " + job);
        assertThat(checkpointed.state()).isEqualTo(StepState.DONE);
        List<ActionStepView> evictions =
                done.steps().stream().filter(s -> s.name().startsWith("evict ")).toList();
        assertThat(evictions).isNotEmpty().allSatisfy(e -> {
            assertThat(e.state()).isEqualTo(StepState.DONE);
            assertThat(e.startedAt()).isAfterOrEqualTo(checkpointed.endedAt());
        });
        long checkpointSeconds =
                Duration.between(noticed, checkpointed.endedAt()).toSeconds();
        // The save blocks the trainers for 30 simulated seconds; on a loaded machine the simulated fleet's ticks and
        // the test's own reading of "noticed" drift by a few seconds against the wall clock.
        assertThat(checkpointSeconds)
                .as("the save blocks for 30 s, inside the 120 s notice")
                .isBetween(20L, 110L);

        IncidentView incident = awaitRecoveredIncident(job);
        assertThat(incident.checkpointBeforeExit()).isTrue();
        CheckpointView saved = read(m -> m.jobs().checkpoints(job)).orElseThrow().checkpoints().stream()
                .filter(c -> c.completedAt() != null && c.completedAt().isAfter(noticed.minusSeconds(1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no checkpoint completed after the notice"));
        // No step was thrown away: the trainers reported no step past the saved one before the stop, and the run
        // resumed from that very checkpoint.
        long lastStepBeforeStop = lastStepBefore(job, incident.stoppedAt());
        long firstStepAfter = firstStepAfter(job, incident.stoppedAt());
        assertThat(lastStepBeforeStop).isLessThanOrEqualTo(saved.step());
        assertThat(incident.restoredStep()).isEqualTo(saved.step());
        assertThat(firstStepAfter).isGreaterThanOrEqualTo(lastStepBeforeStop);
        // The trainers acknowledged prepare_exit and held still after their save: the time between the save and the
        // eviction is a pause, not training, so Lifeline's own accounting loses nothing either.
        assertThat(incident.lostReworkMillis()).isZero();
        long saveToStop =
                Duration.between(saved.completedAt(), incident.stoppedAt()).toMillis();
        long lost = read(m -> m.jobs().goodput(job).orElseThrow().lostReworkMillis());
        assertThat(lost).isEqualTo(incident.lostReworkMillis());
        BenchmarkReport r = new BenchmarkReport("notice-policy-on");
        r.add("policy on: lost rework of the job (ms)", lost);
        r.add(
                "policy on: steps lost (last step before the stop - first step after it, at least 0)",
                Math.max(0, lastStepBeforeStop - firstStepAfter));
        r.add("policy on: save completed to eviction (ms)", saveToStop);
        r.add("policy on: notice to checkpoint completed (s)", checkpointSeconds);
        r.add(
                "policy on: notice to drain succeeded (s)",
                Duration.between(noticed, done.updatedAt()).toSeconds());
        r.write("as named in each row");
    }

    @Test
    void noticeWithThePolicyOffLosesTheWorkSinceTheLastCheckpoint() throws Exception {
        String pool = "policy-off-spot";
        String job = "policy-off/trainer";
        policies.update(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF, Map.of(), admin());
        // The same fleet, dated five minutes ago and replayed at once: no deadline is measured, so no clock is raced.
        Instant start = Instant.now().minusSeconds(400);
        FleetSimulator sim = new FleetSimulator(scenario(pool, "policy-off"), start);
        submit(sim.advanceTo(start.plusSeconds(120)));
        JobDetail d = read(m -> m.jobs().detail(job)).orElseThrow();
        assertThat(d.summary().state()).isEqualTo(JobState.RUNNING);
        String node = d.membership().current().participants().get(0).node();
        sim.injectNotice(node);
        // The notice, the termination 120 s later, the restart on two nodes and the first progress after it.
        for (int s = 130; s <= 330; s += 10) {
            submit(sim.advanceTo(start.plusSeconds(s)));
        }

        IncidentView incident = awaitRecoveredIncident(job);
        assertThat(incident.checkpointBeforeExit()).isFalse();
        assertThat(incident.lostReworkMillis()).isPositive();
        long lastStepBeforeStop = lastStepBefore(job, incident.stoppedAt());
        long firstStepAfter = firstStepAfter(job, incident.stoppedAt());
        assertThat(firstStepAfter).as("training went back to an older step").isLessThan(lastStepBeforeStop);
        long lost = read(m -> m.jobs().goodput(job).orElseThrow().lostReworkMillis());
        assertThat(lost).isPositive();
        assertThat(drainOf(node)).isEmpty();
        BenchmarkReport r = new BenchmarkReport("notice-policy-off");
        r.add("policy off: lost rework of the job (ms)", lost);
        r.add(
                "policy off: steps lost (last step before the stop - first step after it)",
                lastStepBeforeStop - firstStepAfter);
        r.write("as named in each row");
    }

    // ------------------------------------------------------------------------------------------------ support

    private String awaitRunningOnThreeNodes(String job) {
        JobDetail d = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> read(m -> m.jobs().detail(job)).orElse(null),
                        j -> j != null
                                && j.summary().state() == JobState.RUNNING
                                && j.membership() != null
                                && j.membership().current() != null
                                && j.membership().current().participants().size() == 3);
        return d.membership().current().participants().get(0).node();
    }

    private IncidentView awaitRecoveredIncident(String job) {
        return await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> read(m -> m.jobs().incidents(job)).orElse(List.of()).stream()
                                .filter(i -> i.interrupted() && i.outcome() == IncidentOutcome.RECOVERED)
                                .findFirst(),
                        Optional::isPresent)
                .get();
    }

    private static long lastStepBefore(String job, Instant stop) {
        return PROGRESS.stream()
                .filter(p -> p.job().equals(job) && p.at().isBefore(stop))
                .mapToLong(Progress::step)
                .max()
                .orElseThrow(() -> new AssertionError("no progress of " + job + " before " + stop));
    }

    private static long firstStepAfter(String job, Instant stop) {
        return PROGRESS.stream()
                .filter(p -> p.job().equals(job) && p.at().isAfter(stop))
                .findFirst()
                .map(Progress::step)
                .orElseThrow(() -> new AssertionError("no progress of " + job + " after " + stop));
    }

    private Optional<ActionView> drainOf(String node) {
        return actions
                .list(new ActionQuery(ActionKind.DRAIN, null, node, REQUESTER, null, null, 10, null))
                .items()
                .stream()
                .findFirst()
                .flatMap(a -> actions.find(a.id()));
    }

    private static ActionStepView step(ActionView a, String name) {
        return a.steps().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no step '" + name + "' in " + a.steps()));
    }

    private void submit(List<Event> events) throws Exception {
        for (int i = 0; i < events.size(); i += 1000) {
            gateway.submit(events.subList(i, Math.min(events.size(), i + 1000)))
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        }
        runtime.barrier().get(30, TimeUnit.SECONDS);
    }

    private <T> T read(java.util.function.Function<io.lifeline.runtime.LiveModel, T> q) {
        try {
            return runtime.read(q).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Caller admin() {
        return Caller.unrestricted("notice-policy-test");
    }
}
