package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.action.port.ClusterActions.PodRef;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The quick start's cluster: actions on the running demo fleet, through its tick thread. */
class DemoClusterActionsTest {

    /** Keeps every event the demo delivers. */
    private static final class Collecting implements IngestGateway {
        final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<IngestReceipt> submit(List<Event> batch, io.lifeline.eventlog.ConsumedOffsets offsets) {
            events.addAll(batch);
            return CompletableFuture.completedFuture(new IngestReceipt(batch.size(), 0));
        }

        List<Event> of(EventType type) {
            return events.stream().filter(e -> e.type() == type).toList();
        }
    }

    private static DemoConfig fast() {
        return new DemoConfig() {
            @Override
            public Optional<Boolean> enabled() {
                return Optional.of(true);
            }

            @Override
            public Optional<String> scenarioFile() {
                return Optional.empty();
            }

            @Override
            public double speed() {
                return 120;
            }

            @Override
            public long tickMillis() {
                return 50;
            }
        };
    }

    private final Collecting gateway = new Collecting();
    private final DemoRunner runner = new DemoRunner(fast(), gateway, Clock.systemUTC());
    private final DemoClusterActions actions = new DemoClusterActions(runner);

    @AfterEach
    void stop() {
        runner.stop();
    }

    @Test
    void notAvailableUntilTheDemoRuns() {
        assertThat(actions.available()).isFalse();
        assertThat(actions.cordon("any").result()).isEqualTo(Result.FAILED);
        assertThat(actions.trainingPodsOn("any")).isEmpty();
    }

    @Test
    void cordonEvictAndCommandsActOnTheRunningDemo() {
        runner.start();
        assertThat(actions.available()).isTrue();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> !gateway.of(EventType.TRAINER_RENDEZVOUS).isEmpty());
        Event rendezvous = gateway.of(EventType.TRAINER_RENDEZVOUS).get(0);
        String job = rendezvous.subject();
        String node = ((TrainerData.Rendezvous) rendezvous.data())
                .participants()
                .get(0)
                .node();

        assertThat(actions.cordon(node).result()).isEqualTo(Result.PATCHED);
        assertThat(actions.cordon(node).result()).isEqualTo(Result.NOOP);
        List<PodRef> pods = actions.trainingPodsOn(node);
        assertThat(pods).singleElement().satisfies(p -> assertThat(p.job()).isEqualTo(job));
        assertThat(actions.evict(pods.get(0), false).result()).isEqualTo(Result.EVICTED);
        assertThat(actions.evict(pods.get(0), false).result()).isEqualTo(Result.NOT_FOUND);
        assertThat(actions.scaleWorkers(job, 10_000).result()).isEqualTo(Result.FAILED);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(gateway.of(EventType.NODE_CORDONED))
                    .anySatisfy(e -> assertThat(e.subject()).isEqualTo(node));
            assertThat(gateway.of(EventType.POD_EVICTED))
                    .anySatisfy(e -> assertThat(e.subject()).isEqualTo(job));
        });
        assertThat(actions.uncordon(node).result()).isEqualTo(Result.PATCHED);
        assertThat(runner.hasJob(job)).isTrue();
        assertThat(runner.hasJob("nobody/none")).isFalse();
    }
}
