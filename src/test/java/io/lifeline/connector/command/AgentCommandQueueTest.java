package io.lifeline.connector.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The queue of commands for agents polling over HTTP: delivery, long-poll, redelivery, bounds and deadlines. */
class AgentCommandQueueTest {

    private static final String JOB = "team/echo";

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T10:00:00Z"));

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    private final MovableClock clock = new MovableClock();
    private final AgentCommandQueue queue = new AgentCommandQueue(3, Duration.ofSeconds(30), Duration.ofHours(1), 2, clock);

    @AfterEach
    void stop() {
        queue.stop();
    }

    private TrainerCommand command(String id, Instant deadline) {
        return new TrainerCommand(id, JOB, CommandType.CHECKPOINT_NOW, Map.of(), clock.instant(), deadline);
    }

    private static List<String> ids(List<TrainerCommand> commands) {
        return commands.stream().map(TrainerCommand::id).toList();
    }

    private List<TrainerCommand> pollNow() throws Exception {
        return queue.poll(JOB, Duration.ZERO).toCompletableFuture().get(1, TimeUnit.SECONDS);
    }

    @Test
    void queuedCommandsAreDeliveredOnceUntilTheRedeliveryTimeAndLeaveWhenAcknowledged() throws Exception {
        queue.offer(command("c1", null));
        queue.offer(command("c1", null));
        queue.offer(command("c2", null));
        assertThat(ids(pollNow())).containsExactly("c1", "c2");
        assertThat(pollNow()).isEmpty();
        assertThat(queue.ack(JOB, "c1")).map(TrainerCommand::id).contains("c1");
        assertThat(queue.ack(JOB, "c1")).isEmpty();
        clock.advance(Duration.ofSeconds(31));
        assertThat(ids(pollNow())).containsExactly("c2");
        assertThat(queue.pending(JOB)).isEqualTo(1);
    }

    @Test
    void aLongPollIsAnsweredByTheNextCommandWithoutWaitingOut() throws Exception {
        CompletableFuture<List<TrainerCommand>> a = queue.poll(JOB, Duration.ofSeconds(30)).toCompletableFuture();
        CompletableFuture<List<TrainerCommand>> b = queue.poll(JOB, Duration.ofSeconds(30)).toCompletableFuture();
        assertThat(a).isNotDone();
        queue.offer(command("c1", null));
        assertThat(ids(a.get(1, TimeUnit.SECONDS))).containsExactly("c1");
        assertThat(ids(b.get(1, TimeUnit.SECONDS))).containsExactly("c1");
    }

    @Test
    void aLongPollWithNothingAnswersAnEmptyListAfterItsWait() throws Exception {
        long t0 = System.nanoTime();
        List<TrainerCommand> got = queue.poll(JOB, Duration.ofMillis(300)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(got).isEmpty();
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
    }

    @Test
    void tooManyWaitingPollsAnswerTheOldestEmpty() throws Exception {
        CompletableFuture<List<TrainerCommand>> first = queue.poll(JOB, Duration.ofSeconds(30)).toCompletableFuture();
        queue.poll(JOB, Duration.ofSeconds(30));
        queue.poll(JOB, Duration.ofSeconds(30));
        assertThat(first.get(1, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void aFullQueueDropsItsOldestCommand() throws Exception {
        for (int i = 1; i <= 4; i++) {
            queue.offer(command("c" + i, null));
        }
        assertThat(ids(pollNow())).containsExactly("c2", "c3", "c4");
    }

    @Test
    void commandsPastTheirDeadlineAreDropped() throws Exception {
        queue.offer(command("late", clock.instant().minusSeconds(1)));
        queue.offer(command("soon", clock.instant().plusSeconds(10)));
        queue.offer(command("later", clock.instant().plusSeconds(100)));
        clock.advance(Duration.ofSeconds(20));
        assertThat(ids(pollNow())).containsExactly("later");
    }

    @Test
    void commandsWithoutDeadlineLeaveAfterTheRetentionAndIdleJobsAreForgotten() throws Exception {
        queue.offer(command("c1", null));
        queue.sweep();
        assertThat(queue.jobs()).isEqualTo(1);
        clock.advance(Duration.ofHours(1));
        queue.sweep();
        assertThat(queue.jobs()).isZero();
        assertThat(pollNow()).isEmpty();
    }
}
