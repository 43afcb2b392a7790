package io.lifeline.connector.outbound.command.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.domain.event.TrainerData.AckStatus;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.eventlog.ChangeNotifications;
import io.lifeline.eventlog.Jdbc;
import io.lifeline.eventlog.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The agents' command queue in PostgreSQL (table {@code agent_command}): one row a command and job, with its
 * delivery (when, to which agent key) and its acknowledgement. Every replica reads and writes the same rows, so the
 * command one replica queued is delivered and acknowledged through any other.
 *
 * <p>Two writes are conditional, so that replicas racing on a row never both win: {@link #DELIVER} marks only the
 * rows still due (never delivered, delivered to another key, or delivered too long ago unacknowledged), and
 * {@link #ACKNOWLEDGE} reads the row's previous acknowledgement under its lock, so exactly one acknowledgement is the
 * first. Each operation is one round trip, except queuing, which is one transaction. Every method fails with a
 * {@link StoreUnavailableException} when PostgreSQL cannot be asked.
 */
@ApplicationScoped
public class AgentCommandStore {

    /** The channel a queued command is announced on, with its job as the payload. */
    public static final String CHANNEL = "lifeline_agent_commands";

    static final String INSERT = "INSERT INTO agent_command"
            + " (job, id, type, params, issued_at, deadline, queued_at, expires_at)"
            + " VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?) ON CONFLICT (job, id) DO NOTHING";
    static final String DELETE_EXPIRED_OF_JOB = "DELETE FROM agent_command WHERE job = ? AND expires_at <= ?";
    /** Beyond the capacity: acknowledged rows go first, then the oldest; says which were still unacknowledged. */
    static final String TRIM = "DELETE FROM agent_command WHERE job = ? AND id IN (SELECT id FROM agent_command"
            + " WHERE job = ? ORDER BY (acked_at IS NULL) DESC, seq DESC OFFSET ?) RETURNING id, acked_at IS NULL";
    /** The conditional delivery: only rows due for {@code key}, marked as delivered to it in the same statement. */
    static final String DELIVER = "UPDATE agent_command SET delivered_at = ?, delivered_to = ? WHERE job = ?"
            + " AND acked_at IS NULL AND expires_at > ?"
            + " AND (delivered_at IS NULL OR delivered_at <= ? OR delivered_to IS DISTINCT FROM ?)"
            + " RETURNING seq, id, type, params::text, issued_at, deadline";
    /** The acknowledgement, with whether it is the first: the previous one is read under the row's lock. */
    static final String ACKNOWLEDGE =
            "WITH old AS (SELECT acked_at FROM agent_command WHERE job = ? AND id = ? FOR UPDATE)"
                    + " UPDATE agent_command a SET acked_at = ?, ack_status = ?, ack_detail = ? FROM old"
                    + " WHERE a.job = ? AND a.id = ?"
                    + " RETURNING a.type, a.params::text, a.issued_at, a.deadline, old.acked_at IS NULL";

    static final String ACKNOWLEDGEMENT = "SELECT type, ack_status, ack_detail, acked_at FROM agent_command"
            + " WHERE job = ? AND id = ? AND acked_at IS NOT NULL";
    static final String PENDING =
            "SELECT count(*) FROM agent_command WHERE job = ? AND acked_at IS NULL AND expires_at > ?";
    static final String DELETE_EXPIRED = "DELETE FROM agent_command WHERE expires_at <= ?";

    private static final TypeReference<Map<String, String>> PARAMS = new TypeReference<>() {};

    /**
     * An acknowledgement recorded on its command.
     *
     * @param command   the command acknowledged
     * @param firstAck  whether it was still waiting for one (not acknowledged before, by any replica)
     */
    public record Acknowledged(TrainerCommand command, boolean firstAck) {}

    private final DataSource dataSource;
    private final Jdbc jdbc;
    private final ObjectMapper json;

    @Inject
    AgentCommandStore(AgroalDataSource dataSource, ObjectMapper json) {
        this((DataSource) dataSource, json);
    }

    /** The queue in {@code dataSource} (tests and tools), its parameters written as JSON by {@code json}. */
    public AgentCommandStore(DataSource dataSource, ObjectMapper json) {
        this.dataSource = dataSource;
        this.jdbc = new Jdbc(dataSource, "the agent command queue");
        this.json = json;
    }

    /**
     * Queues a command unless its id is known for the job; when queued, drops the job's expired rows and whatever
     * exceeds {@code capacity}, and announces it on {@link #CHANNEL}, all in one transaction.
     *
     * @return the ids of commands dropped while still waiting for an acknowledgement, to make room
     */
    public List<String> queue(TrainerCommand command, Instant now, Instant expires, int capacity) {
        String params = params(command.params());
        return jdbc.inTransaction(c -> {
            boolean inserted = Jdbc.update(c, INSERT, ps -> {
                        ps.setString(1, command.job());
                        ps.setString(2, command.id());
                        ps.setString(3, command.type().wire());
                        ps.setString(4, params);
                        ps.setTimestamp(5, timestamp(command.issuedAt()));
                        ps.setTimestamp(6, timestamp(command.deadline()));
                        ps.setTimestamp(7, Timestamp.from(now));
                        ps.setTimestamp(8, Timestamp.from(expires));
                    })
                    == 1;
            if (!inserted) {
                return List.of();
            }
            Jdbc.update(c, DELETE_EXPIRED_OF_JOB, ps -> {
                ps.setString(1, command.job());
                ps.setTimestamp(2, Timestamp.from(now));
            });
            record Trimmed(String id, boolean unacknowledged) {}
            List<Trimmed> trimmed = Jdbc.list(
                    c,
                    TRIM,
                    ps -> {
                        ps.setString(1, command.job());
                        ps.setString(2, command.job());
                        ps.setInt(3, capacity);
                    },
                    rs -> new Trimmed(rs.getString(1), rs.getBoolean(2)));
            List<String> dropped = new ArrayList<>();
            for (Trimmed t : trimmed) {
                if (t.unacknowledged()) {
                    dropped.add(t.id());
                }
            }
            ChangeNotifications.notify(c, CHANNEL, command.job());
            return dropped;
        });
    }

    /**
     * Marks and returns, in the order they were queued, the job's commands due for delivery to the agent whose key
     * has digest {@code key}: never delivered, delivered to another key, or delivered at or before
     * {@code redeliverBefore} and not acknowledged.
     */
    public List<TrainerCommand> deliver(String job, String key, Instant now, Instant redeliverBefore) {
        record Claimed(long seq, TrainerCommand command) {}
        List<Claimed> out = jdbc.withConnection(c -> Jdbc.list(
                c,
                DELIVER,
                ps -> {
                    ps.setTimestamp(1, Timestamp.from(now));
                    ps.setString(2, key);
                    ps.setString(3, job);
                    ps.setTimestamp(4, Timestamp.from(now));
                    ps.setTimestamp(5, Timestamp.from(redeliverBefore));
                    ps.setString(6, key);
                },
                rs -> new Claimed(
                        rs.getLong(1),
                        new TrainerCommand(
                                rs.getString(2),
                                job,
                                type(rs.getString(3)),
                                params(rs.getString(4)),
                                Jdbc.instant(rs, 5),
                                Jdbc.instant(rs, 6)))));
        // RETURNING gives no order of its own.
        return out.stream()
                .sorted(Comparator.comparingLong(Claimed::seq))
                .map(Claimed::command)
                .toList();
    }

    /**
     * Records an acknowledgement on its command at {@code at}. Empty when the command is not (or no longer) known.
     */
    public Optional<Acknowledged> acknowledge(
            String job, String commandId, Instant at, AckStatus status, String detail) {
        return jdbc.withConnection(c -> Jdbc.list(
                        c,
                        ACKNOWLEDGE,
                        ps -> {
                            ps.setString(1, job);
                            ps.setString(2, commandId);
                            ps.setTimestamp(3, Timestamp.from(at));
                            ps.setString(4, status.wireName());
                            ps.setString(5, detail);
                            ps.setString(6, job);
                            ps.setString(7, commandId);
                        },
                        rs -> new Acknowledged(
                                new TrainerCommand(
                                        commandId,
                                        job,
                                        type(rs.getString(1)),
                                        params(rs.getString(2)),
                                        Jdbc.instant(rs, 3),
                                        Jdbc.instant(rs, 4)),
                                rs.getBoolean(5)))
                .stream()
                .findFirst());
    }

    /** The acknowledgement recorded on a command, if any. */
    public Optional<CommandAckView> acknowledgement(String job, String commandId) {
        return jdbc.one(ACKNOWLEDGEMENT, rs -> ackView(commandId, rs), job, commandId);
    }

    /** Commands of a job still waiting for an acknowledgement at {@code now} (delivered or not). */
    public int pending(String job, Instant now) {
        return jdbc.withConnection(c -> Jdbc.list(
                        c,
                        PENDING,
                        ps -> {
                            ps.setString(1, job);
                            ps.setTimestamp(2, Timestamp.from(now));
                        },
                        rs -> rs.getInt(1))
                .get(0));
    }

    /** Deletes every job's rows expired at {@code now}. */
    public void deleteExpired(Instant now) {
        jdbc.update(DELETE_EXPIRED, ps -> ps.setTimestamp(1, Timestamp.from(now)));
    }

    /**
     * Listens on {@link #CHANNEL} on a connection of its own: {@code onJob} with the job of each command queued by any
     * replica, {@code onConnected} after each (re)connection, when notices may have been missed.
     */
    public ChangeNotifications listen(Consumer<String> onJob, Runnable onConnected) {
        return new ChangeNotifications(dataSource, CHANNEL, onJob, onConnected);
    }

    private static CommandAckView ackView(String commandId, ResultSet rs) throws SQLException {
        return new CommandAckView(
                commandId,
                rs.getString(1),
                status(rs.getString(2)),
                rs.getString(3),
                rs.getTimestamp(4).toInstant());
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
}
