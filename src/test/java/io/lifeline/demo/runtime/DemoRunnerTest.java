package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.store.RetryLaterException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private Instant now = T0;

        void advance(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** Records every batch and answers with scripted outcomes (accepting when the script is empty). */
    private static final class FakeGateway implements IngestGateway {
        final List<List<Event>> batches = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final Deque<Supplier<CompletableFuture<IngestReceipt>>> script = new ArrayDeque<>();

        @Override
        public CompletionStage<IngestReceipt> submit(List<Event> events, io.lifeline.store.ConsumedOffsets offsets) {
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
        ManualClock clock = new ManualClock();
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(60, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        assertThat(gateway.batches).hasSize(1);
        assertThat(gateway.batches.get(0)).allSatisfy(e -> assertThat(e.time()).isEqualTo(T0))
                .anySatisfy(e -> assertThat(e.type()).isEqualTo(EventType.NODE_REGISTERED));
        clock.advance(1000);
        runner.tick();
        assertThat(runner.simulatedNow()).isEqualTo(T0.plusSeconds(60));
        assertThat(gateway.batches).hasSize(2);
        assertThat(gateway.batches.get(1)).isNotEmpty()
                .allSatisfy(e -> assertThat(e.time()).isAfter(T0).isBeforeOrEqualTo(T0.plusSeconds(60)));
        assertThat(runner.delivered()).isEqualTo(gateway.batches.get(0).size());
    }

    @Test
    void backPressureKeepsTheEventsAndOffersTheSameOnesOnTheNextTick() {
        ManualClock clock = new ManualClock();
        FakeGateway gateway = new FakeGateway();
        gateway.script.add(DemoRunnerTest::backPressure);
        gateway.script.add(DemoRunnerTest::backPressure);
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(250);
        runner.tick();
        clock.advance(250);
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
        ManualClock clock = new ManualClock();
        FakeGateway gateway = new FakeGateway();
        gateway.script.add(CompletableFuture::new);
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(1000);
        runner.tick();
        assertThat(gateway.batches).hasSize(1);
        clock.advance(DemoRunner.SUBMIT_TIMEOUT_MS);
        runner.tick();
        assertThat(gateway.batches).hasSize(2);
        assertThat(gateway.batches.get(1)).isEqualTo(gateway.batches.get(0));
    }

    @Test
    void otherFailuresAreRetriedAFewTimesThenTheBatchIsDropped() {
        ManualClock clock = new ManualClock();
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
        assertThat(gateway.batches.subList(0, DemoRunner.MAX_ATTEMPTS)).allSatisfy(b -> assertThat(b)
                .isEqualTo(gateway.batches.get(0)));
    }

    @Test
    void afterAnOutageTheSimulationCatchesUpInBoundedSteps() {
        ManualClock clock = new ManualClock();
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(1, 250, null), gateway, clock);
        runner.prepare();
        runner.tick();
        clock.advance(10 * 60_000);
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
            assertThat(gateway.threads).isNotEmpty().allSatisfy(t -> assertThat(t).isEqualTo("lifeline-demo"));
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
    void aBadScenarioFileOrSpeedStopsTheStartWithTheReason() {
        DemoRunner missing = new DemoRunner(config(1, 250, "/nonexistent/scenario.json"), new FakeGateway());
        assertThatThrownBy(missing::start).isInstanceOfSatisfying(ScenarioException.class,
                e -> assertThat(e.getMessage()).contains("/nonexistent/scenario.json", "file not found"));
        assertThat(missing.running()).isFalse();
        DemoRunner stopped = new DemoRunner(config(0, 250, null), new FakeGateway());
        assertThatThrownBy(stopped::start).hasMessage("lifeline.demo.speed: must be > 0 and <= 1000000, got 0.0");
    }

    @Test
    void failureLogsNameTheJobsAndNodesConcerned() {
        ManualClock clock = new ManualClock();
        FakeGateway gateway = new FakeGateway();
        DemoRunner runner = new DemoRunner(config(600, 250, null), gateway, clock);
        runner.prepare();
        clock.advance(1000);
        runner.tick();
        List<Event> batch = new ArrayList<>(gateway.batches.get(0));
        assertThat(DemoRunner.concerned(batch)).startsWith("spot-p5-0000 node.registered, spot-p5-0001 node.registered")
                .endsWith("telemetry events");
    }
}
