package io.lifeline.connector.outbound.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.domain.event.TrainerData.AckStatus;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.eventlog.ChangeNotifications;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.platform.Threads;
import io.lifeline.security.store.AgentClaims;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Commands waiting for agents that poll over HTTP instead of reading Kafka, in PostgreSQL (table
 * {@code agent_command}) so that whichever replica an agent's poll or acknowledgement reaches answers it: the
 * command queued by the leader is delivered by any replica, and its acknowledgement, recorded on the row, is known
 * to all of them.
 *
 * <p>A command goes only to the agent holding the job's claim ({@link AgentClaims}): each delivery is to a key, a
 * poll that no longer holds the claim when a command comes gets nothing, and a command delivered to a key that lost
 * the claim is delivered to the next holder at once.
 *
 * <p>Per job: at most {@code queue-size} commands (the acknowledged, then the oldest go first when full), each kept
 * until its deadline passes or {@code retention} runs out; a delivered command not acknowledged within
 * {@code redeliver-after} is delivered again (agents dedupe by id). Delivery is one conditional {@code UPDATE}, so
 * two replicas polling at once never both deliver a command within one redelivery period.
 *
 * <p>A long-poll with nothing to deliver parks a future, not a thread, and costs no query while it waits: queuing a
 * command NOTIFYs {@code lifeline_agent_commands} with its job, and each replica's one listening connection
 * ({@link ChangeNotifications}) wakes the polls it holds for that job. One timer thread answers every expired poll
 * with an empty list and deletes expired rows.
 */
@ApplicationScoped
public class AgentCommandQueue implements CommandChannel {

    static final String CHANNEL = "lifeline_agent_commands";
    private static final Logger LOG = Logger.getLogger(AgentCommandQueue.class);
    private static final TypeReference<Map<String, String>> PARAMS = new TypeReference<>() {};

    @Override
    public String name() {
        return "agent queue";
    }

    /** Always on: agents may poll for any job. */
    @Override
    public boolean accepts(TrainerCommand command) {
        return true;
    }

    /** Queues the command; done once it is committed to PostgreSQL, failed with the reason when not. */
    @Override
    public CompletionStage<Void> send(TrainerCommand command) {
        try {
            offer(command);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public Optional<CommandAckView> acknowledgement(String job, String commandId) {
        String sql = "SELECT type, ack_status, ack_detail, acked_at FROM agent_command WHERE job = ? AND id = ?"
                + " AND acked_at IS NOT NULL";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, job);
            ps.setString(2, commandId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new CommandAckView(
                        commandId,
                        rs.getString(1),
                        status(rs.getString(2)),
                        rs.getString(3),
                        rs.getTimestamp(4).toInstant()));
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the agent command queue", e);
        }
    }

    /**
     * An acknowledgement recorded on its command.
     *
     * @param command   the command acknowledged
     * @param firstAck  whether it was still waiting for one (not acknowledged before, by any replica)
     */
    public record Acknowledged(TrainerCommand command, boolean firstAck) {}

    /** A long-poll waiting for a command, by the agent whose key has digest {@code key}. */
    private static final class Waiter {
        final CompletableFuture<List<TrainerCommand>> future = new CompletableFuture<>();
        final String key;
        ScheduledFuture<?> timeout;

        Waiter(String key) {
            this.key = key;
        }
    }

    /** The polls this replica holds for one job; guarded by its own monitor. */
    private static final class JobWaiters {
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
        /** Removed from the map: whoever holds it must fetch the job's entry again. */
        boolean dead;
    }

    private final DataSource dataSource;
    private final int capacity;
    private final Duration redeliverAfter;
    private final Duration retention;
    private final int maxWaiters;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    private final Map<String, JobWaiters> polls = new ConcurrentHashMap<>();
    private final ChangeNotifications notifications;
    private final AgentClaims claims;
    private final ObjectMapper json;

    @Inject
    AgentCommandQueue(
            AgroalDataSource dataSource, AgentClaims claims, CommandConfig config, Clock clock, ObjectMapper json) {
        this(
                dataSource,
                claims,
                config.agent().queueSize(),
                config.agent().redeliverAfter(),
                config.agent().retention(),
                config.agent().maxWaitersPerJob(),
                clock,
                json);
    }

    AgentCommandQueue(
            DataSource dataSource,
            AgentClaims claims,
            int capacity,
            Duration redeliverAfter,
            Duration retention,
            int maxWaiters,
            Clock clock,
            ObjectMapper json) {
        this.dataSource = dataSource;
        this.json = json;
        this.claims = claims;
        this.capacity = Math.max(1, capacity);
        this.redeliverAfter = redeliverAfter;
        this.retention = retention;
        this.maxWaiters = Math.max(1, maxWaiters);
        this.clock = clock;
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-agent-commands"));
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        long sweep = Math.max(1000, Math.min(60_000, retention.toMillis()));
        timer.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
        // Notices missed while the listening connection was down: every job with a waiting poll is looked at again.
        this.notifications = new ChangeNotifications(
                dataSource, CHANNEL, this::wake, () -> polls.keySet().forEach(this::wake));
    }

    /**
     * Queues a command for its job's agents (committed before this returns) and wakes the polls waiting for it on
     * every replica. A known id is ignored; a command past its deadline is dropped.
     *
     * @throws StoreUnavailableException when PostgreSQL does not take it
     */
    public void offer(TrainerCommand command) {
        Instant now = clock.instant();
        if (command.deadline() != null && !command.deadline().isAfter(now)) {
            LOG.debugf(
                    "Command %s for %s dropped: its deadline %s has passed",
                    command.id(), command.job(), command.deadline());
            return;
        }
        Instant expires = command.deadline() != null ? command.deadline() : now.plus(retention);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (insert(c, command, now, expires)) {
                    trim(c, command.job(), now);
                    ChangeNotifications.notify(c, CHANNEL, command.job());
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the agent command queue", e);
        }
    }

    private boolean insert(Connection c, TrainerCommand command, Instant now, Instant expires) throws SQLException {
        String sql = "INSERT INTO agent_command (job, id, type, params, issued_at, deadline, queued_at, expires_at)"
                + " VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?) ON CONFLICT (job, id) DO NOTHING";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, command.job());
            ps.setString(2, command.id());
            ps.setString(3, command.type().wire());
            ps.setString(4, params(command.params()));
            ps.setTimestamp(5, timestamp(command.issuedAt()));
            ps.setTimestamp(6, timestamp(command.deadline()));
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(expires));
            return ps.executeUpdate() == 1;
        }
    }

    /** Drops the job's expired rows, then whatever exceeds the capacity: acknowledged ones first, then the oldest. */
    private void trim(Connection c, String job, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM agent_command WHERE job = ? AND expires_at <= ?")) {
            ps.setString(1, job);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.executeUpdate();
        }
        String sql = "DELETE FROM agent_command WHERE job = ? AND id IN (SELECT id FROM agent_command WHERE job = ?"
                + " ORDER BY (acked_at IS NULL) DESC, seq DESC OFFSET ?) RETURNING id, acked_at IS NULL";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, job);
            ps.setString(2, job);
            ps.setInt(3, capacity);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(2)) {
                        LOG.warnf("Agent command queue of %s full (%d): dropped %s", job, capacity, rs.getString(1));
                    }
                }
            }
        }
    }

    /**
     * The job's commands to deliver now to the agent whose key has digest {@code key} (the caller checked that it
     * holds the job's claim); when there are none, waits up to {@code wait} for one (an empty list after that, or as
     * soon as a command comes while another key holds the claim). Never blocks the calling thread beyond one query.
     *
     * @throws StoreUnavailableException when PostgreSQL cannot be asked
     */
    public CompletionStage<List<TrainerCommand>> poll(String job, String key, Duration wait) {
        Waiter evicted = null;
        Waiter w;
        while (true) {
            JobWaiters q = polls.computeIfAbsent(job, k -> new JobWaiters());
            synchronized (q) {
                if (q.dead) {
                    continue;
                }
                // Under the job's monitor, so a notice handled meanwhile either finds this poll waiting or finds
                // nothing this query has not delivered.
                List<TrainerCommand> ready = deliver(job, key);
                if (!ready.isEmpty() || wait.isZero() || wait.isNegative()) {
                    return CompletableFuture.completedFuture(ready);
                }
                if (q.waiters.size() >= maxWaiters) {
                    evicted = q.waiters.removeFirst();
                }
                w = new Waiter(key);
                q.waiters.addLast(w);
                Waiter mine = w;
                w.timeout = timer.schedule(() -> expire(q, mine), wait.toMillis(), TimeUnit.MILLISECONDS);
                break;
            }
        }
        if (evicted != null) {
            evicted.timeout.cancel(false);
            evicted.future.complete(List.of());
        }
        return w.future;
    }

    /**
     * Records an acknowledgement on its command, whichever replica queued or delivered it; the command leaves the
     * deliveries. Empty when the command is not (or no longer) known.
     */
    public Optional<Acknowledged> ack(String job, String commandId, AckStatus status, String detail) {
        String sql = "WITH old AS (SELECT acked_at FROM agent_command WHERE job = ? AND id = ? FOR UPDATE)"
                + " UPDATE agent_command a SET acked_at = ?, ack_status = ?, ack_detail = ? FROM old"
                + " WHERE a.job = ? AND a.id = ?"
                + " RETURNING a.type, a.params::text, a.issued_at, a.deadline, old.acked_at IS NULL";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, job);
            ps.setString(2, commandId);
            ps.setTimestamp(3, Timestamp.from(clock.instant()));
            ps.setString(4, status.wireName());
            ps.setString(5, detail);
            ps.setString(6, job);
            ps.setString(7, commandId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                TrainerCommand cmd = new TrainerCommand(
                        commandId,
                        job,
                        type(rs.getString(1)),
                        params(rs.getString(2)),
                        instant(rs.getTimestamp(3)),
                        instant(rs.getTimestamp(4)));
                return Optional.of(new Acknowledged(cmd, rs.getBoolean(5)));
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the agent command queue", e);
        }
    }

    /** Commands of a job still waiting for an acknowledgement (delivered or not). */
    public int pending(String job) {
        String sql = "SELECT count(*) FROM agent_command WHERE job = ? AND acked_at IS NULL AND expires_at > ?";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, job);
            ps.setTimestamp(2, Timestamp.from(clock.instant()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the agent command queue", e);
        }
    }

    /**
     * Marks and returns the commands due for delivery to {@code key}: never delivered, delivered to another key, or
     * delivered too long ago unacknowledged.
     */
    private List<TrainerCommand> deliver(String job, String key) {
        Instant now = clock.instant();
        String sql = "UPDATE agent_command SET delivered_at = ?, delivered_to = ? WHERE job = ? AND acked_at IS NULL"
                + " AND expires_at > ? AND (delivered_at IS NULL OR delivered_at <= ? OR delivered_to IS DISTINCT FROM ?)"
                + " RETURNING seq, id, type, params::text, issued_at, deadline";
        record Claimed(long seq, TrainerCommand command) {}
        List<Claimed> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, key);
            ps.setString(3, job);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setTimestamp(5, Timestamp.from(now.minus(redeliverAfter)));
            ps.setString(6, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Claimed(
                            rs.getLong(1),
                            new TrainerCommand(
                                    rs.getString(2),
                                    job,
                                    type(rs.getString(3)),
                                    params(rs.getString(4)),
                                    instant(rs.getTimestamp(5)),
                                    instant(rs.getTimestamp(6)))));
                }
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the agent command queue", e);
        }
        out.sort(Comparator.comparingLong(Claimed::seq));
        return out.stream().map(Claimed::command).toList();
    }

    /**
     * A notice for {@code job}: its waiting polls on this replica by the claim's holder get what is deliverable now;
     * polls by a key that lost the claim meanwhile are answered with nothing (their next poll is refused).
     */
    private void wake(String job) {
        JobWaiters q = polls.get(job);
        if (q == null) {
            return;
        }
        List<Waiter> answered = new ArrayList<>();
        List<Waiter> emptied = new ArrayList<>();
        List<TrainerCommand> ready = List.of();
        synchronized (q) {
            if (q.waiters.isEmpty()) {
                return;
            }
            try {
                String holder = claims.holders(List.of(job)).get(job);
                for (Waiter w : q.waiters) {
                    (w.key.equals(holder) ? answered : emptied).add(w);
                }
                if (!answered.isEmpty()) {
                    ready = deliver(job, holder);
                }
            } catch (StoreUnavailableException e) {
                LOG.warnf("Waiting polls of %s not answered: %s", job, e.getMessage());
                return;
            }
            if (ready.isEmpty()) {
                answered.clear(); // another replica's poll delivered it
            }
            q.waiters.removeAll(answered);
            q.waiters.removeAll(emptied);
        }
        // Completed outside the lock: completion runs the HTTP response on the completing thread's terms.
        for (Waiter w : answered) {
            w.timeout.cancel(false);
            w.future.complete(ready);
        }
        for (Waiter w : emptied) {
            w.timeout.cancel(false);
            w.future.complete(List.of());
        }
    }

    /**
     * The poll {@code poll} (a future {@link #poll} returned for {@code job}) will not be answered: its connection
     * closed. If it still waits, it stops waiting (a command that comes is kept for the next poll) and
     * {@code afterwards} runs on this queue's timer thread, off the caller's (an event loop's).
     */
    public void abandon(String job, CompletionStage<List<TrainerCommand>> poll, Runnable afterwards) {
        JobWaiters q = polls.get(job);
        if (q == null) {
            return;
        }
        Waiter gone = null;
        synchronized (q) {
            for (Iterator<Waiter> it = q.waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (w.future == poll) {
                    it.remove();
                    gone = w;
                    break;
                }
            }
        }
        if (gone != null) {
            gone.timeout.cancel(false);
            gone.future.complete(List.of());
            timer.execute(() -> {
                try {
                    afterwards.run();
                } catch (RuntimeException e) {
                    LOG.warnf("After a closed poll of %s: %s", job, e.toString());
                }
            });
        }
    }

    private void expire(JobWaiters q, Waiter w) {
        boolean mine;
        synchronized (q) {
            mine = q.waiters.remove(w);
        }
        if (mine) {
            w.future.complete(List.of());
        }
    }

    /**
     * Deletes expired rows and claims lapsed longer than the retention (any replica may), and forgets jobs nobody
     * waits on here.
     */
    void sweep() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM agent_command WHERE expires_at <= ?")) {
            ps.setTimestamp(1, Timestamp.from(clock.instant()));
            ps.executeUpdate();
            claims.deleteLapsed(clock.instant().minus(retention));
        } catch (SQLException | RuntimeException e) {
            LOG.warnf("Expired agent commands not deleted (next sweep tries again): %s", e.getMessage());
        }
        for (String job : polls.keySet()) {
            polls.computeIfPresent(job, (k, q) -> {
                synchronized (q) {
                    if (q.waiters.isEmpty()) {
                        q.dead = true;
                        return null;
                    }
                    return q;
                }
            });
        }
    }

    /** Jobs with a waiting poll on this replica (tests). */
    int jobs() {
        return polls.size();
    }

    /** Whether the connection that hears other replicas' commands is up (tests). */
    boolean listening() {
        return notifications.connected();
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        notifications.close();
        for (JobWaiters q : polls.values()) {
            synchronized (q) {
                q.waiters.forEach(w -> w.future.complete(List.of()));
                q.waiters.clear();
            }
        }
    }

    private String params(Map<String, String> params) {
        try {
            return json.writeValueAsString(params);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write command parameters", e);
        }
    }

    private Map<String, String> params(String stored) {
        try {
            return json.readValue(stored, PARAMS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable command parameters: " + stored, e);
        }
    }

    private static CommandType type(String wire) {
        for (CommandType t : CommandType.values()) {
            if (t.wire().equals(wire)) {
                return t;
            }
        }
        throw new IllegalStateException("unknown command type in agent_command: " + wire);
    }

    private static AckStatus status(String wire) {
        for (AckStatus s : AckStatus.values()) {
            if (s.wireName().equals(wire)) {
                return s;
            }
        }
        throw new IllegalStateException("unknown acknowledgement status in agent_command: " + wire);
    }

    private static Timestamp timestamp(Instant t) {
        return t == null ? null : Timestamp.from(t);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
