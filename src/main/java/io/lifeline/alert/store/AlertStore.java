package io.lifeline.alert.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertChange;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Alerts in PostgreSQL (tables of V4): alert state, the notification outbox and delivery attempts. SQL through
 * {@link Jdbc}, one short transaction per call, as the outbox's batched inserts and conditional updates need; a failing
 * database is a {@link io.lifeline.eventlog.StoreUnavailableException}. Silences are {@link SilenceStore}'s.
 */
@ApplicationScoped
public class AlertStore {

    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
    private static final String ALERT_COLUMNS = "fingerprint, rule, namespace, state, labels::text, annotations::text, "
            + "active_since, firing_since, resolved_at, updated_at, value";

    /** A notification to queue for one receiver. */
    public record Outgoing(Receiver receiver, String idempotencyKey, String groupKey, String status, byte[] body) {}

    /** A queued notification due for an attempt. */
    public record Pending(
            long id,
            String receiver,
            ReceiverKind kind,
            String idempotencyKey,
            String groupKey,
            byte[] body,
            int attempts) {}

    /** One recorded delivery attempt. */
    public record Attempt(
            long id,
            Long notificationId,
            String receiver,
            String receiverKind,
            int attempt,
            Instant attemptedAt,
            String outcome,
            Integer httpStatus,
            long durationMillis,
            String error) {}

    private final Jdbc jdbc;
    private final ObjectMapper json;

    public AlertStore(AgroalDataSource dataSource, ObjectMapper json) {
        this.jdbc = new Jdbc(dataSource, "the alert store");
        this.json = json;
    }

    /** Every stored alert (pending, firing, resolved), to restore the engine. */
    public List<Alert> loadAlerts() {
        return queryAlerts("SELECT " + ALERT_COLUMNS + " FROM alert_state", ps -> {});
    }

    /** Alerts passing the filters (null: any), firing first, newest first. */
    public List<Alert> listAlerts(AlertState state, AlertRule rule, String namespace, int limit) {
        return listAlerts(state, rule, namespace, null, null, limit);
    }

    /**
     * Alerts as {@link #listAlerts(AlertState, AlertRule, String, int)}, limited (before the limit is applied) to the
     * alerts of {@code namespaces} and the node alerts (no namespace) of {@code nodes}; null {@code namespaces}: all.
     */
    public List<Alert> listAlerts(
            AlertState state, AlertRule rule, String namespace, Set<String> namespaces, Set<String> nodes, int limit) {
        List<String> ns = namespaces == null ? List.of() : List.copyOf(namespaces);
        List<String> nd = namespaces == null || nodes == null ? List.of() : List.copyOf(nodes);
        String scope = "";
        if (namespaces != null) {
            List<String> any = new ArrayList<>();
            if (!ns.isEmpty()) {
                any.add("namespace IN (" + marks(ns.size()) + ")");
            }
            if (!nd.isEmpty()) {
                any.add("(namespace IS NULL AND labels->>'node' IN (" + marks(nd.size()) + "))");
            }
            scope = any.isEmpty() ? " AND FALSE" : " AND (" + String.join(" OR ", any) + ")";
        }
        String sql = "SELECT " + ALERT_COLUMNS + " FROM alert_state WHERE (?::text IS NULL OR state = ?)"
                + " AND (?::text IS NULL OR rule = ?) AND (?::text IS NULL OR namespace = ?)" + scope
                + " ORDER BY CASE state WHEN 'firing' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END,"
                + " COALESCE(resolved_at, firing_since, active_since) DESC, fingerprint LIMIT ?";
        return queryAlerts(sql, ps -> {
            String s = state == null ? null : state.wire();
            String r = rule == null ? null : rule.key();
            ps.setString(1, s);
            ps.setString(2, s);
            ps.setString(3, r);
            ps.setString(4, r);
            ps.setString(5, namespace);
            ps.setString(6, namespace);
            int i = 7;
            for (String v : ns) {
                ps.setString(i++, v);
            }
            for (String v : nd) {
                ps.setString(i++, v);
            }
            ps.setInt(i, limit);
        });
    }

    private static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    private List<Alert> queryAlerts(String sql, Jdbc.Binder binder) {
        return jdbc.withConnection(c -> Jdbc.list(
                c,
                sql,
                binder,
                rs -> new Alert(
                        rs.getString(1),
                        AlertRule.parse(rs.getString(2)),
                        readMap(rs.getString(5)),
                        readMap(rs.getString(6)),
                        AlertState.fromWire(rs.getString(4)),
                        Jdbc.instant(rs, 7),
                        Jdbc.instant(rs, 8),
                        Jdbc.instant(rs, 9),
                        Jdbc.instant(rs, 10),
                        (Double) rs.getObject(11),
                        rs.getString(3),
                        List.of())));
    }

    /**
     * Records one evaluation in one transaction: the changed alerts (an alert back to INACTIVE is deleted), the
     * current value of every other active alert, and the notifications to deliver (a notification already queued
     * for that receiver and key is not queued again).
     */
    public void recordEvaluation(
            List<AlertChange> changes, Collection<Alert> active, List<Outgoing> outbox, Instant now) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM alert_state WHERE fingerprint = ?")) {
                for (AlertChange ch : changes) {
                    if (ch.to() == AlertState.INACTIVE) {
                        del.setString(1, ch.alert().fingerprint());
                        del.addBatch();
                    }
                }
                del.executeBatch();
            }
            upsert(
                    c,
                    changes.stream()
                            .map(AlertChange::alert)
                            .filter(a -> a.state() != AlertState.INACTIVE)
                            .toList());
            upsert(c, active);
            try (PreparedStatement ins = c.prepareStatement(
                    "INSERT INTO alert_notification (receiver, receiver_kind,"
                            + " idempotency_key, group_key, status, body, state, next_attempt_at, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (receiver, idempotency_key) DO NOTHING")) {
                for (Outgoing o : outbox) {
                    ins.setString(1, o.receiver().name());
                    ins.setString(2, o.receiver().kind().wire());
                    ins.setString(3, o.idempotencyKey());
                    ins.setString(4, o.groupKey());
                    ins.setString(5, o.status());
                    ins.setBytes(6, o.body());
                    ins.setTimestamp(7, Timestamp.from(now));
                    ins.setTimestamp(8, Timestamp.from(now));
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            return null;
        });
    }

    private void upsert(Connection c, Collection<Alert> alerts) throws SQLException {
        if (alerts.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO alert_state (fingerprint, rule, namespace, state,"
                + " labels, annotations, active_since, firing_since, resolved_at, updated_at, value)"
                + " VALUES (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET"
                + " state = EXCLUDED.state, labels = EXCLUDED.labels, annotations = EXCLUDED.annotations,"
                + " namespace = EXCLUDED.namespace, active_since = EXCLUDED.active_since,"
                + " firing_since = EXCLUDED.firing_since, resolved_at = EXCLUDED.resolved_at,"
                + " updated_at = EXCLUDED.updated_at, value = EXCLUDED.value")) {
            for (Alert a : alerts) {
                ps.setString(1, a.fingerprint());
                ps.setString(2, a.rule().key());
                ps.setString(3, a.namespace());
                ps.setString(4, a.state().wire());
                ps.setString(5, write(a.labels()));
                ps.setString(6, write(a.annotations()));
                ps.setTimestamp(7, Timestamp.from(a.activeSince()));
                ps.setTimestamp(8, ts(a.firingSince()));
                ps.setTimestamp(9, ts(a.resolvedAt()));
                ps.setTimestamp(10, Timestamp.from(a.updatedAt()));
                if (a.value() == null || a.value().isNaN() || a.value().isInfinite()) {
                    ps.setNull(11, Types.DOUBLE);
                } else {
                    ps.setDouble(11, a.value());
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    // --------------------------------------------------------------------------------------------------- outbox

    /** Pending notifications whose next attempt is due, oldest first. */
    public List<Pending> due(Instant now, int limit) {
        return jdbc.list(
                "SELECT id, receiver, receiver_kind, idempotency_key, group_key, body, attempts"
                        + " FROM alert_notification WHERE state = 'pending' AND next_attempt_at <= ?"
                        + " ORDER BY next_attempt_at, id LIMIT ?",
                rs -> new Pending(
                        rs.getLong(1),
                        rs.getString(2),
                        ReceiverKind.fromWire(rs.getString(3)),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getBytes(6),
                        rs.getInt(7)),
                now,
                limit);
    }

    /**
     * Records an attempt and its consequence in one transaction: the notification is delivered, failed for good,
     * or due again at {@code nextAttemptAt}; with {@code notificationId} null (an Alertmanager push) only the
     * attempt is recorded.
     */
    public void recordAttempt(
            Long notificationId,
            Receiver receiver,
            int attempt,
            Instant at,
            DeliveryOutcome outcome,
            Integer httpStatus,
            long durationMillis,
            String error,
            Instant nextAttemptAt) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO alert_delivery_attempt (notification_id,"
                    + " receiver, receiver_kind, attempt, attempted_at, outcome, http_status, duration_ms, error)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setObject(1, notificationId, Types.BIGINT);
                ps.setString(2, receiver.name());
                ps.setString(3, receiver.kind().wire());
                ps.setInt(4, attempt);
                ps.setTimestamp(5, Timestamp.from(at));
                ps.setString(6, outcome.wire());
                ps.setObject(7, httpStatus, Types.INTEGER);
                ps.setLong(8, durationMillis);
                ps.setString(9, error);
                ps.executeUpdate();
            }
            if (notificationId != null) {
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE alert_notification SET attempts = ?, state = ?,"
                                + " next_attempt_at = COALESCE(?, next_attempt_at), finished_at = ?, last_error = ? WHERE id = ?")) {
                    ps.setInt(1, attempt);
                    ps.setString(
                            2,
                            outcome == DeliveryOutcome.RETRY
                                    ? "pending"
                                    : outcome == DeliveryOutcome.DELIVERED ? "delivered" : "failed");
                    ps.setTimestamp(3, ts(nextAttemptAt));
                    ps.setTimestamp(4, outcome == DeliveryOutcome.RETRY ? null : Timestamp.from(at));
                    ps.setString(5, error);
                    ps.setLong(6, notificationId);
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    /** A receiver's recent attempts, oldest first. */
    public List<Attempt> attempts(String receiver, int limit) {
        return jdbc.list(
                "SELECT id, notification_id, receiver, receiver_kind, attempt, attempted_at, outcome,"
                        + " http_status, duration_ms, error FROM (SELECT * FROM alert_delivery_attempt WHERE receiver = ?"
                        + " ORDER BY id DESC LIMIT ?) a ORDER BY id",
                rs -> new Attempt(
                        rs.getLong(1),
                        (Long) rs.getObject(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getInt(5),
                        Jdbc.instant(rs, 6),
                        rs.getString(7),
                        (Integer) rs.getObject(8),
                        rs.getLong(9),
                        rs.getString(10)),
                receiver,
                limit);
    }

    /**
     * Deletes resolved alerts, finished notifications and attempts older than {@code before} (silences:
     * {@link SilenceStore#deleteEndedBefore}).
     */
    public void deleteOlderThan(Instant before) {
        jdbc.withConnection(c -> {
            for (String sql : List.of(
                    "DELETE FROM alert_state WHERE state = 'resolved' AND resolved_at < ?",
                    "DELETE FROM alert_notification WHERE state <> 'pending' AND finished_at < ?",
                    "DELETE FROM alert_delivery_attempt WHERE attempted_at < ?")) {
                Jdbc.update(c, sql, before);
            }
            return null;
        });
    }

    private Map<String, String> readMap(String s) throws SQLException {
        try {
            return json.readValue(s, STRING_MAP);
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable label map", e);
        }
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Timestamp ts(Instant t) {
        return t == null ? null : Timestamp.from(t);
    }
}
