package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class DemoRunnerTest {

    private static final Instant T0 = Instant.parse("2026-01-31T12:00:00Z");

    /** Records every batch and answers with scripted outcomes (accepting when the script is empty). */
    private static final class FakeGateway implements IngestGateway {
        final List<List<Event>> batches = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final Deque<Supplier<CompletableFuture<IngestReceipt>>> script = new ArrayDeque<>();

        @Override
        public CompletionStage<IngestReceipt> submit(List<Event> events, io.lifeline.eventlog.ConsumedOffsets offsets) {
            batches.add(events);
            threads.add(Thread.currentThread().getName());
            Supplier<CompletableFuture<IngestReceipt>> next = script.poll();
            return next != null ? next.get() : CompletableFuture.completedFuture(new IngestReceipt(events.size(), 0));
        }
    }

    private static DemoConfig config(double speed, long tickMillis, String scenarioFile) {
        return new DemoConfig() {
            @Override
            public Optional<Boolean> enabled() {
                return Optional.empty();
            }

            @Override
            public Optional<String> scenarioFile() {
                return Optional.ofNullable(scenarioFile);
            }

            @Override
            public double speed() {
                return speed;
            }

            @Override
            public long tickMillis() {
                return tickMillis;
            }
        };
    }

    private static CompletableFuture<IngestReceipt> backPressure() {
        return CompletableFuture.failedFuture(new RetryLaterException("event buffer full"));
    }

    @Test
    void eachTickAdvancesTheSimulationByTheElapsedRealTimeTimesSpeed() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(60, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        assertThat(gateway.batches).hasSize(1);
        assertThat(gateway.batches.get(0))
                .allSatisfy(e -> assertThat(e.time()).isEqualTo(T0))
                .anySatisfy(e -> assertThat(e.type()).isEqualTo(EventType.NODE_REGISTERED));
        clock.advance(Duration.ofMillis(1000));
        runner.tick();
        assertThat(runner.simulatedNow()).isEqualTo(T0.plusSeconds(60));
        assertThat(gateway.batches).hasSize(2);
        assertThat(gateway.batches.get(1))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.time()).isAfter(T0).isBeforeOrEqualTo(T0.plusSeconds(60)));
        assertThat(runner.delivered()).isEqualTo(gateway.batches.get(0).size());
    }

    @Test
    void backPressureKeepsTheEventsAndOffersTheSameOnesOnTheNextTick() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        gateway.script.add(DemoRunnerTest::backPressure);
        gateway.script.add(DemoRunnerTest::backPressure);
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(Duration.ofMillis(250));
        runner.tick();
        clock.advance(Duration.ofMillis(250));
        runner.tick();
        assertThat(gateway.batches).hasSize(3);
        assertThat(gateway.batches.get(1)).isEqualTo(gateway.batches.get(0));
        assertThat(gateway.batches.get(2)).isEqualTo(gateway.batches.get(0));
        assertThat(runner.simulatedNow()).isEqualTo(T0);
        runner.tick();
        assertThat(runner.delivered()).isEqualTo(gateway.batches.get(0).size());
        assertThat(runner.simulatedNow()).isEqualTo(T0.plusMillis(500));
        assertThat(runner.dropped()).isZero();
    }

    @Test
    void aSubmissionThatNeverAnswersDoesNotHoldTheTickAndIsOfferedAgainAfterTheTimeout() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        gateway.script.add(CompletableFuture::new);
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(Duration.ofMillis(1000));
        runner.tick();
        assertThat(gateway.batches).hasSize(1);
        clock.advance(Duration.ofMillis(DemoRunner.SUBMIT_TIMEOUT_MS));
        runner.tick();
        assertThat(gateway.batches).hasSize(2);
        assertThat(gateway.batches.get(1)).isEqualTo(gateway.batches.get(0));
    }

    @Test
    void otherFailuresAreRetriedAFewTimesThenTheBatchIsDropped() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        for (int i = 0; i < DemoRunner.MAX_ATTEMPTS; i++) {
            gateway.script.add(() -> CompletableFuture.failedFuture(new IllegalStateException("store down")));
        }
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        for (int i = 0; i < DemoRunner.MAX_ATTEMPTS; i++) {
            runner.tick();
        }
        assertThat(runner.dropped()).isZero();
        runner.tick();
        assertThat(runner.dropped()).isEqualTo(gateway.batches.get(0).size());
        assertThat(gateway.batches.subList(0, DemoRunner.MAX_ATTEMPTS))
                .allSatisfy(b -> assertThat(b).isEqualTo(gateway.batches.get(0)));
    }

    @Test
    void afterAnOutageTheSimulationCatchesUpInBoundedSteps() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(Duration.ofMillis(10 * 60_000));
        runner.tick();
        assertThat(runner.simulatedNow()).isEqualTo(T0.plusMillis(DemoRunner.MAX_CATCH_UP_MS));
    }

    @Test
    void startRunsTicksOnTheDemoThreadUntilStopped() throws InterruptedException {
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(1, 20, null), gateway);
        runner.start();
        try {
            long deadline = System.currentTimeMillis() + 10_000;
            while (gateway.batches.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(runner.running()).isTrue();
            assertThat(gateway.threads)
                    .isNotEmpty()
                    .allSatisfy(t -> assertThat(t).matches("lifeline-demo-\\d+"));
            runner.requestCheckpoint("c1", "research/llama3-70b-pretrain", null);
        } finally {
            runner.stop();
        }
        assertThat(runner.running()).isFalse();
        int batches = gateway.batches.size();
        Thread.sleep(100);
        assertThat(gateway.batches).hasSize(batches);
        assertThatThrownBy(() -> runner.suspend("c2", "research/llama3-70b-pretrain"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void itsStopInTheBackgroundPhaseWritesTheJournalThroughTheLastSettledEvent() throws Exception {
        MovableClock clock = new MovableClock(T0);
        MemoryJournal journal = new MemoryJournal();
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(1, 10, null), gateway, clock, journal);
        runner.start();
        try {
            clock.advance(Duration.ofSeconds(30));
            awaitSimulated(runner, clock.instant());
            awaitSettled(gateway, runner);
        } finally {
            // The application's stop (ShutdownOrder.BACKGROUND), while the database is still there: bean destruction
            // comes after the database stopped, too late for this write.
            runner.onStop(null);
        }
        assertThat(runner.running()).isFalse();
        assertThat(runner.delivered()).isPositive();
        assertThat(journal.load())
                .hasValueSatisfying(s -> assertThat(s.mark().settled()).isEqualTo(runner.delivered()));
    }

    @Test
    void aRestartContinuesTheStoredRunWhereItsHistoryStoppedStandingStillForAllButTheEndOfALongStop() throws Exception {
        MovableClock clock = new MovableClock(T0);
        MemoryJournal journal = new MemoryJournal();
        FakeGateway first = new FakeGateway();
        DemoRunner before = new DemoRunner(config(1, 10, null), first, clock, journal);
        before.start();
        try {
            // Past the scripted notice (2 minutes) and its termination, and a command for a job in between.
            for (int s = 0; s < 300; s += 5) {
                clock.advance(Duration.ofSeconds(5));
                awaitSimulated(before, clock.instant());
                if (s == 150) {
                    before.requestCheckpoint(
                            "c1", "vision/vit-g14-clip", clock.instant().plusSeconds(600));
                }
            }
            awaitSettled(first, before);
        } finally {
            before.stop();
        }
        List<Event> earlier = first.batches.stream().flatMap(List::stream).toList();
        assertThat(earlier)
                .anySatisfy(e -> assertThat(e.type()).isEqualTo(EventType.NODE_INTERRUPTION_NOTICE))
                .anySatisfy(e -> assertThat(e.data())
                        .isInstanceOfSatisfying(
                                io.lifeline.domain.event.TrainerData.CommandAck.class,
                                a -> assertThat(a.commandId()).isEqualTo("c1")));
        assertThat(journal.calls()).extracting(c -> c.call().op()).containsExactly(SimCall.Op.CHECKPOINT);

        clock.advance(Duration.ofHours(2)); // stopped for two hours
        Instant restarted = clock.instant();
        FakeGateway second = new FakeGateway();
        DemoRunner after = new DemoRunner(config(1, 10, null), second, clock, journal);
        after.start();
        try {
            assertThat(after.runStart()).isEqualTo(T0);
            for (int s = 0; s < 300; s += 5) {
                clock.advance(Duration.ofSeconds(5));
                awaitSimulated(after, clock.instant());
            }
            awaitSettled(second, after);
        } finally {
            after.stop();
        }
        List<Event> later = second.batches.stream().flatMap(List::stream).toList();
        assertThat(journal.runsBegun()).isEqualTo(1);
        // It stood still for the first 1 h 50 min of the stop and lived through the last ten minutes.
        Instant resumed = restarted.minus(DemoRunner.RESTART_CATCH_UP);
        assertThat(later)
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.time()).isAfterOrEqualTo(resumed))
                .noneSatisfy(e -> assertThat(e.type()).isIn(EventType.JOB_SUBMITTED, EventType.WORKLOAD_ADMITTED));
        // Nothing registers again (a replacement of a reclaimed node is a new node), no reclaim happens twice.
        for (EventType once :
                List.of(EventType.NODE_REGISTERED, EventType.NODE_INTERRUPTION_NOTICE, EventType.NODE_TERMINATED)) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            earlier.stream().filter(e -> e.type() == once).forEach(e -> seen.add(e.subject()));
            assertThat(later)
                    .filteredOn(e -> e.type() == once)
                    .extracting(Event::subject)
                    .as(once.wireName())
                    .doesNotContainAnyElementsOf(seen);
        }
        java.util.Set<String> ids = new java.util.HashSet<>();
        earlier.forEach(e -> ids.add(e.id()));
        assertThat(later)
                .allSatisfy(e -> assertThat(ids.add(e.id()))
                        .as("%s delivered twice", e.id())
                        .isTrue());
        // Each job trains on from the step it had reached (these three were not interrupted around the restart).
        for (String job : List.of("vision/vit-g14-clip", "recsys/dlrm-dcnv2", "speech/whisper-large-v3-ft")) {
            assertThat(firstStep(later, job)).as(job).isGreaterThanOrEqualTo(lastStep(earlier, job));
        }

        // And all of it is the one run the fleet would have had without the stop, only later by the pause.
        List<DemoJournal.Entry> calls = journal.calls();
        assertThat(calls).extracting(c -> c.call().op()).containsExactly(SimCall.Op.CHECKPOINT, SimCall.Op.CONTINUE);
        Duration pause = Duration.between(
                calls.get(1).at(), Instant.parse(calls.get(1).call().args().get(0)));
        // Two hours less the ten minutes caught up, and the moments the first run had simulated but not handed over
        // when it stopped.
        Duration stoodStill = Duration.ofHours(2).minus(DemoRunner.RESTART_CATCH_UP);
        assertThat(pause).isBetween(stoodStill, stoodStill.plusSeconds(30));
        io.lifeline.demo.FleetSimulator straight =
                new io.lifeline.demo.FleetSimulator(new ScenarioParser().loadDefault(), T0);
        List<Event> expected = new ArrayList<>(straight.advanceTo(calls.get(0).at()));
        calls.get(0).call().applyTo(straight);
        Instant end = later.get(later.size() - 1).time().minus(pause);
        expected.addAll(straight.advanceTo(end));
        List<Event> actual = new ArrayList<>(earlier);
        later.forEach(e -> actual.add(new Event(
                e.id(),
                e.source(),
                e.type(),
                e.subject(),
                e.time().minus(pause),
                e.data() instanceof io.lifeline.domain.event.NodeData.InterruptionNotice n
                        ? new io.lifeline.domain.event.NodeData.InterruptionNotice(
                                n.kind(), n.provider(), n.deadline().minus(pause))
                        : e.data())));
        assertThat(actual).hasSameSizeAs(expected).isEqualTo(expected);
    }

    private static long lastStep(List<Event> events, String job) {
        return events.stream()
                .filter(e ->
                        e.subject().equals(job) && e.data() instanceof io.lifeline.domain.event.TrainerData.Progress)
                .mapToLong(e -> ((io.lifeline.domain.event.TrainerData.Progress) e.data()).step())
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    private static long firstStep(List<Event> events, String job) {
        return events.stream()
                .filter(e ->
                        e.subject().equals(job) && e.data() instanceof io.lifeline.domain.event.TrainerData.Progress)
                .mapToLong(e -> ((io.lifeline.domain.event.TrainerData.Progress) e.data()).step())
                .findFirst()
                .orElseThrow();
    }

    private static void awaitSimulated(DemoRunner runner, Instant target) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while ((runner.simulatedNow() == null || runner.simulatedNow().isBefore(target))
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(2);
        }
        assertThat(runner.simulatedNow()).isAfterOrEqualTo(target);
    }

    private static void awaitSettled(FakeGateway gateway, DemoRunner runner) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (runner.delivered()
                        < gateway.batches.stream().mapToLong(List::size).sum()
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(2);
        }
    }

    @Test
    void aBadScenarioFileOrSpeedStopsTheStartWithTheReason() {
        DemoRunner missing = new DemoRunner(config(1, 250, "/nonexistent/scenario.json"), new FakeGateway());
        assertThatThrownBy(missing::start)
                .isInstanceOfSatisfying(
                        ScenarioException.class,
                        e -> assertThat(e.getMessage()).contains("/nonexistent/scenario.json", "file not found"));
        assertThat(missing.running()).isFalse();
        DemoRunner stopped = new DemoRunner(config(0, 250, null), new FakeGateway());
        assertThatThrownBy(stopped::start).hasMessage("lifeline.demo.speed: must be > 0 and <= 1000000, got 0.0");
    }

    @Test
    void failureLogsNameTheJobsAndNodesConcerned() {
        MovableClock clock = new MovableClock(T0);
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(600, 250, null), gateway, clock);
        runner.prepare();
        clock.advance(Duration.ofMillis(1000));
        runner.tick();
        List<Event> batch = new ArrayList<>(gateway.batches.get(0));
        assertThat(DemoRunner.concerned(batch))
                .startsWith("spot-p5-0000 node.registered, spot-p5-0001 node.registered")
                .endsWith("telemetry events");
    }
}
