package io.lifeline.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.eventlog.EventLogQuery;
import io.lifeline.eventlog.EventLogRepository;
import io.lifeline.eventlog.EventLogWriter;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.metrics.IngestMetrics;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The pipeline takes room in the model's queue before it stores anything: with the model's queue full, a submission
 * is pushed back whole and none of its events reaches the event log (a stored event is never left without a place).
 */
@QuarkusTest
class ModelAdmissionTest {

    @Inject
    EventLogWriter log;

    @Inject
    EventLogRepository repository;

    @Inject
    IngestConfig config;

    @Inject
    IngestMetrics metrics;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private List<Event> cordons(String node, int n) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Event(
                    UUID.randomUUID().toString(),
                    "test://admission",
                    EventType.NODE_CORDONED,
                    node,
                    now.plusMillis(i),
                    new NodeData.Cordoned("test")));
        }
        return out;
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    void aSubmissionTheModelHasNoRoomForIsPushedBackBeforeItIsStored() throws Exception {
        ModelRuntime model = ModelRuntimes.start(Clock.systemUTC(), 10, 1L << 20);
        CountDownLatch hold = new CountDownLatch(1);
        try {
            IngestPipeline pipeline =
                    new IngestPipeline(log, model, config, Clock.systemUTC(), new SimpleMeterRegistry(), metrics);
            pipeline.open();
            CountDownLatch holding = new CountDownLatch(1);
            model.readNow(m -> {
                holding.countDown();
                try {
                    hold.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            });
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();

            String stored = "admitted-" + UUID.randomUUID().toString().substring(0, 8);
            IngestReceipt first =
                    pipeline.submit(cordons(stored, 8)).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(first.accepted()).isEqualTo(8);
            assertThat(model.queuedEvents()).isEqualTo(8);

            String refused = "refused-" + UUID.randomUUID().toString().substring(0, 8);
            List<Event> tooMany = cordons(refused, 5);
            CompletableFuture<IngestReceipt> second = pipeline.submit(tooMany).toCompletableFuture();
            assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(RetryLaterException.class)
                    .hasMessageContaining("model busy");
            assertThat(storedCount(stored)).isEqualTo(8);
            assertThat(storedCount(refused)).isZero();

            hold.countDown();
            model.barrier().get(10, TimeUnit.SECONDS);
            assertThat(model.queuedEvents()).isZero();
            // The same events, retried once there is room, are new (not taken for duplicates) and stored.
            IngestReceipt retried =
                    pipeline.submit(tooMany).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(retried.accepted()).isEqualTo(5);
            assertThat(storedCount(refused)).isEqualTo(5);
            model.barrier().get(10, TimeUnit.SECONDS);
            assertThat(model.appliedCount()).isEqualTo(13);
        } finally {
            hold.countDown();
            ModelRuntimes.stop(model);
        }
    }

    private int storedCount(String subject) {
        return repository
                .page(new EventLogQuery(subject, null, null, null, 100, false, null))
                .size();
    }
}
