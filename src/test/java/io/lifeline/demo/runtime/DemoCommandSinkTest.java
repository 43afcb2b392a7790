package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Commands for the demo fleet's jobs reach its simulated trainers, which acknowledge them as an agent would. */
class DemoCommandSinkTest {

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final DemoRunner runner = new DemoRunner(
            new DemoConfig() {
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
                    return 60;
                }

                @Override
                public long tickMillis() {
                    return 50;
                }
            },
            new IngestGateway() {
                @Override
                public CompletionStage<IngestReceipt> submit(
                        List<Event> batch, io.lifeline.eventlog.ConsumedOffsets offsets) {
                    events.addAll(batch);
                    return CompletableFuture.completedFuture(new IngestReceipt(batch.size(), 0));
                }
            });
    private final DemoCommandSink sink = new DemoCommandSink(runner);

    @AfterEach
    void stop() {
        runner.stop();
    }

    private List<TrainerData.AckStatus> acks(String id) {
        return events.stream()
                .filter(e -> e.data() instanceof TrainerData.CommandAck a
                        && a.commandId().equals(id))
                .map(e -> ((TrainerData.CommandAck) e.data()).status())
                .toList();
    }

    @Test
    void demoJobsObeyCommandsAndOtherJobsAreNotTheDemos() {
        TrainerCommand foreign =
                new TrainerCommand("x", "elsewhere/job", CommandType.CHECKPOINT_NOW, Map.of(), Instant.now(), null);
        assertThat(sink.accepts(foreign)).isFalse();
        runner.start();
        assertThat(sink.accepts(foreign)).isFalse();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> events.stream().anyMatch(e -> e.type() == EventType.TRAINER_PROGRESS));
        String job = events.stream()
                .filter(e -> e.type() == EventType.TRAINER_PROGRESS)
                .findFirst()
                .orElseThrow()
                .subject();

        TrainerCommand checkpoint = new TrainerCommand(
                "c-1",
                job,
                CommandType.CHECKPOINT_NOW,
                Map.of(),
                Instant.now(),
                runner.simulatedNow().plusSeconds(3600));
        TrainerCommand interval = new TrainerCommand(
                "i-1", job, CommandType.SET_CHECKPOINT_INTERVAL, Map.of("intervalSeconds", "900"), Instant.now(), null);
        TrainerCommand restore = new TrainerCommand(
                "r-1",
                job,
                CommandType.RESTORE_FROM,
                Map.of("checkpointId", "no-such-checkpoint", "uri", "s3://x"),
                Instant.now(),
                null);
        assertThat(sink.accepts(checkpoint)).isTrue();
        assertThat(sink.send(checkpoint).toCompletableFuture())
                .as("confirmed at once")
                .isCompleted();
        assertThat(sink.send(interval).toCompletableFuture()).isCompleted();
        assertThat(sink.send(restore).toCompletableFuture()).isCompleted();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(acks("c-1")).isNotEmpty();
            assertThat(acks("i-1")).containsExactly(TrainerData.AckStatus.ACCEPTED, TrainerData.AckStatus.DONE);
            assertThat(acks("r-1")).containsExactly(TrainerData.AckStatus.REJECTED);
        });
    }
}
