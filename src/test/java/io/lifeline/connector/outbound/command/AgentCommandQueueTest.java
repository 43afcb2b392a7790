package io.lifeline.connector.outbound.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.connector.outbound.command.store.AgentCommandStore;
import io.lifeline.domain.event.TrainerData.AckStatus;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.platform.Json;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.security.store.AgentClaims;
import io.lifeline.testing.MigratedPostgres;
import io.lifeline.testing.MovableClock;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue of commands for agents polling over HTTP, in PostgreSQL: delivery, long-poll, redelivery, bounds and
 * deadlines; and whichever replica answers: two queues over one database play two replicas, as two Lifeline
 * processes behind a Service without affinity would.
 */
class AgentCommandQueueTest {

    /** The database as one replica reaches it: {@link #down} makes every new connection fail, as an outage would. */
    private static final class Reachable implements DataSource {
        final DataSource db;
        final AtomicBoolean down = new AtomicBoolean();

        Reachable(DataSource db) {
            this.db = db;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (down.get()) {
                throw new SQLException("Connection refused", "08001");
            }
            return db.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return db.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return db.isWrapperFor(iface);
        }
    }

    private static MigratedPostgres db;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final String job = "team-" + UUID.randomUUID().toString().substring(0, 8) + "/echo";
    private final List<AgentCommandQueue> replicas = new ArrayList<>();
    private final AgentCommandQueue queue = replica(db.dataSource());

    @BeforeAll
    static void database() throws Exception {
        db = MigratedPostgres.start("lifeline-agent-queue");
    }

    @AfterAll
    static void closeDatabase() throws Exception {
        db.close();
    }

    @AfterEach
    void stop() {
        replicas.forEach(AgentCommandQueue::stop);
    }

    /** The agent's key, as it sends it; the queue is given its digest. */
    private static final String KEY = AgentClaims.digest("agent-key-" + "0123456789abcdef0123456789abcdef");

    private final Caller agent = Caller.ofToken("tok-agent", "agent", Role.INGEST, List.of());
    private final List<String> audited = new ArrayList<>();
    private final AgentClaims claims =
            new AgentClaims(db.dataSource(), (t, what, actor, token, detail) -> audited.add(what), clock);

    private AgentCommandQueue replica(DataSource ds) {
        AgentCommandQueue q = new AgentCommandQueue(
                new AgentCommandStore(ds, Json.mapper()),
                new AgentClaims(ds, (t, w, a, k, d) -> {}, clock),
                3,
                Duration.ofSeconds(30),
                Duration.ofHours(1),
                2,
                clock);
        replicas.add(q);
        return q;
    }

    /** A poll by the agent holding the job's claim (claimed first, as the endpoint does). */
    private CompletionStage<List<TrainerCommand>> poll(AgentCommandQueue q, String job, Duration wait) {
        claims.claim(job, KEY, agent, wait.plusSeconds(30));
        return q.poll(job, KEY, wait);
    }

    private TrainerCommand command(String id, Instant deadline) {
        return new TrainerCommand(
                id, job, CommandType.CHECKPOINT_NOW, Map.of("reason", "drain of gpu-7"), clock.instant(), deadline);
    }

    private static List<String> ids(List<TrainerCommand> commands) {
        return commands.stream().map(TrainerCommand::id).toList();
    }

    private List<TrainerCommand> pollNow(AgentCommandQueue q) throws Exception {
        return poll(q, job, Duration.ZERO).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    // ------------------------------------------------------------------------------------------- one replica

    @Test
    void queuedCommandsAreDeliveredOnceUntilTheRedeliveryTimeAndLeaveWhenAcknowledged() throws Exception {
        queue.offer(command("c1", null));
        queue.offer(command("c1", null));
        queue.offer(command("c2", null));
        List<TrainerCommand> first = pollNow(queue);
        assertThat(ids(first)).containsExactly("c1", "c2");
        assertThat(first.get(0).params()).containsEntry("reason", "drain of gpu-7");
        assertThat(first.get(0).issuedAt()).isEqualTo(clock.instant());
        assertThat(pollNow(queue)).isEmpty();
        assertThat(queue.ack(job, "c1", AckStatus.ACCEPTED, null))
                .map(AgentCommandQueue.Acknowledged::firstAck)
                .contains(true);
        assertThat(queue.ack(job, "c1", AckStatus.DONE, null))
                .as("known, but acknowledged before")
                .map(AgentCommandQueue.Acknowledged::firstAck)
                .contains(false);
        assertThat(queue.ack(job, "nothing-like-it", AckStatus.DONE, null)).isEmpty();
        clock.advance(Duration.ofSeconds(31));
        assertThat(ids(pollNow(queue))).containsExactly("c2");
        assertThat(queue.pending(job)).isEqualTo(1);
    }

    @Test
    void aLongPollIsAnsweredByTheNextCommandWithoutWaitingOut() throws Exception {
        CompletableFuture<List<TrainerCommand>> a =
                poll(queue, job, Duration.ofSeconds(30)).toCompletableFuture();
        CompletableFuture<List<TrainerCommand>> b =
                poll(queue, job, Duration.ofSeconds(30)).toCompletableFuture();
        assertThat(a).isNotDone();
        queue.offer(command("c1", null));
        assertThat(ids(a.get(10, TimeUnit.SECONDS))).containsExactly("c1");
        assertThat(ids(b.get(10, TimeUnit.SECONDS))).containsExactly("c1");
    }

    @Test
    void aLongPollWithNothingAnswersAnEmptyListAfterItsWait() throws Exception {
        long t0 = System.nanoTime();
        List<TrainerCommand> got =
                poll(queue, job, Duration.ofMillis(300)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(got).isEmpty();
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
    }

    @Test
    void tooManyWaitingPollsAnswerTheOldestEmpty() throws Exception {
        CompletableFuture<List<TrainerCommand>> first =
                poll(queue, job, Duration.ofSeconds(30)).toCompletableFuture();
        poll(queue, job, Duration.ofSeconds(30));
        poll(queue, job, Duration.ofSeconds(30));
        assertThat(first.get(1, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void aFullQueueDropsItsAcknowledgedThenItsOldestCommands() throws Exception {
        for (int i = 1; i <= 4; i++) {
            queue.offer(command("c" + i, null));
        }
        assertThat(ids(pollNow(queue))).containsExactly("c2", "c3", "c4");
        queue.ack(job, "c3", AckStatus.DONE, null);
        queue.offer(command("c5", null));
        assertThat(db.queryLong("SELECT count(*) FROM agent_command WHERE job = '" + job + "'"))
                .isEqualTo(3);
        assertThat(queue.acknowledgement(job, "c3"))
                .as("the acknowledged one went first")
                .isEmpty();
        assertThat(queue.pending(job)).isEqualTo(3);
    }

    @Test
    void commandsPastTheirDeadlineAreDroppedAndDeleted() throws Exception {
        queue.offer(command("late", clock.instant().minusSeconds(1)));
        queue.offer(command("soon", clock.instant().plusSeconds(10)));
        queue.offer(command("later", clock.instant().plusSeconds(100)));
        clock.advance(Duration.ofSeconds(20));
        assertThat(ids(pollNow(queue))).containsExactly("later");
        queue.sweep();
        assertThat(db.queryLong("SELECT count(*) FROM agent_command WHERE job = '" + job + "'"))
                .isEqualTo(1);
    }

    @Test
    void commandsWithoutDeadlineLeaveAfterTheRetentionAndIdleJobsAreForgotten() throws Exception {
        queue.offer(command("c1", null));
        CompletableFuture<List<TrainerCommand>> idle =
                poll(queue, job + "-idle", Duration.ofMillis(200)).toCompletableFuture();
        assertThat(queue.jobs()).isEqualTo(1);
        assertThat(idle.get(5, TimeUnit.SECONDS)).isEmpty();
        clock.advance(Duration.ofHours(1));
        queue.sweep();
        assertThat(queue.jobs()).isZero();
        assertThat(pollNow(queue)).isEmpty();
        assertThat(db.queryLong("SELECT count(*) FROM agent_command WHERE job = '" + job + "'"))
                .isZero();
    }

    @Test
    void aSendThatPostgresDoesNotTakeFailsWithTheReasonAndTheNextOneIsDelivered() throws Exception {
        Reachable link = new Reachable(db.dataSource());
        AgentCommandQueue cut = replica(link);
        link.down.set(true);
        CompletableFuture<Void> failed =
                cut.send(command("c1", clock.instant().plusSeconds(60))).toCompletableFuture();
        assertThat(failed).isCompletedExceptionally();
        assertThatThrownBy(failed::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(StoreUnavailableException.class)
                .hasRootCauseMessage("Connection refused");
        assertThat(pollNow(queue)).as("nothing was queued").isEmpty();

        link.down.set(false);
        assertThat(cut.send(command("c1", clock.instant().plusSeconds(60))).toCompletableFuture())
                .isCompleted()
                .isNotCompletedExceptionally();
        assertThat(ids(pollNow(queue))).containsExactly("c1");
    }

    // ------------------------------------------------------------------------------------------- two replicas

    @Test
    void aCommandQueuedOnOneReplicaIsDeliveredAndAcknowledgedThroughTheOtherWhichTheFirstSees() throws Exception {
        AgentCommandQueue a = queue;
        AgentCommandQueue b = replica(db.dataSource());
        a.offer(command("c1", clock.instant().plusSeconds(120)));

        assertThat(ids(pollNow(b))).containsExactly("c1");
        assertThat(pollNow(a))
                .as("delivered once, whichever replica the next poll reaches")
                .isEmpty();
        assertThat(b.ack(job, "c1", AckStatus.REJECTED, "no space left")).hasValueSatisfying(k -> {
            assertThat(k.firstAck()).isTrue();
            assertThat(k.command().type()).isEqualTo(CommandType.CHECKPOINT_NOW);
        });

        assertThat(a.acknowledgement(job, "c1")).hasValueSatisfying(ack -> {
            assertThat(ack.status()).isEqualTo(AckStatus.REJECTED);
            assertThat(ack.message()).isEqualTo("no space left");
            assertThat(ack.command()).isEqualTo("checkpoint_now");
            assertThat(ack.refused()).isTrue();
        });
        assertThat(a.ack(job, "c1", AckStatus.REJECTED, "no space left"))
                .as("acknowledged already, on the other replica")
                .map(AgentCommandQueue.Acknowledged::firstAck)
                .contains(false);
        clock.advance(Duration.ofSeconds(31));
        assertThat(pollNow(a))
                .as("an acknowledged command is not delivered again")
                .isEmpty();
        assertThat(a.pending(job)).isZero();
    }

    @Test
    void aLongPollOnOneReplicaIsAnsweredByACommandQueuedOnTheOther() throws Exception {
        AgentCommandQueue b = replica(db.dataSource());
        await().atMost(Duration.ofSeconds(10)).until(b::listening);
        CompletableFuture<List<TrainerCommand>> waiting =
                poll(b, job, Duration.ofSeconds(60)).toCompletableFuture();
        assertThat(waiting).isNotDone();

        queue.offer(command("c1", null));

        // Well before the poll's own end: it was woken by the other replica's notice, not by its wait running out.
        List<TrainerCommand> got = waiting.get(20, TimeUnit.SECONDS);
        assertThat(ids(got)).containsExactly("c1");
    }

    @Test
    void pollsWaitingOnTwoReplicasAtOnceGetACommandOnceUntilItsRedelivery() throws Exception {
        AgentCommandQueue b = replica(db.dataSource());
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.listening() && b.listening());
        CompletableFuture<List<TrainerCommand>> onA =
                poll(queue, job, Duration.ofSeconds(3)).toCompletableFuture();
        CompletableFuture<List<TrainerCommand>> onB =
                poll(b, job, Duration.ofSeconds(3)).toCompletableFuture();

        queue.offer(command("c1", null));

        List<String> delivered = new ArrayList<>(ids(onA.get(10, TimeUnit.SECONDS)));
        delivered.addAll(ids(onB.get(10, TimeUnit.SECONDS)));
        assertThat(delivered).containsExactly("c1");
        clock.advance(Duration.ofSeconds(30));
        assertThat(ids(pollNow(b)))
                .as("not acknowledged: delivered again after redeliver-after")
                .containsExactly("c1");
    }

    @Test
    void theAcknowledgementOfAnUnknownCommandIsNotAnAcknowledgementOfAnother() {
        queue.offer(command("c1", null));
        Optional<CommandAckView> none = replica(db.dataSource()).acknowledgement(job, "c1");
        assertThat(none).as("queued, not acknowledged").isEmpty();
    }
}
