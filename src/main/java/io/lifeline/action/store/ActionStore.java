package io.lifeline.action.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.action.view.StepResult;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import io.lifeline.eventlog.Fence;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Actions, their steps and the audit log in PostgreSQL (tables of V3). Every write is one short transaction; a write
 * by the leader is fenced ({@link Fence#CONDITION}) in the statement itself. A failing database is a
 * {@link io.lifeline.eventlog.StoreUnavailableException}.
 */
@ApplicationScoped
public class ActionStore {

    private static final String COLUMNS = "id, seq, kind, target, params, reason, requested_by, state, created_at, "
            + "updated_at, deadline, impact, outcome";

    /** A new action as the service hands it over. */
    public record NewAction(
            String id,
            ActionKind kind,
            String target,
            Map<String, String> params,
            String reason,
            String requestedBy,
            String idempotencyKey,
            Instant createdAt,
            Instant deadline,
            Impact impact,
            ActionState state,
            String outcome) {}

    /** What an insert found: created, the same key's earlier action, or another action holding the target. */
    public record Inserted(ActionView action, Kind kind) {
        /** The three answers of {@link #insert}. */
        public enum Kind {
            CREATED,
            REPLAYED,
            TARGET_BUSY
        }
    }

    private final Jdbc jdbc;
    private final ObjectMapper json;

    public ActionStore(AgroalDataSource dataSource, ObjectMapper json) {
        this.jdbc = new Jdbc(dataSource, "the action store");
        this.json = json;
    }

    /**
     * Inserts unless the same requester's key or an unfinished action on the same target exists; the unique indexes
     * decide, so concurrent requests on several replicas agree.
     */
    public Inserted insert(NewAction a) {
        // One statement: the action and its audit entry together, so a policy's reaction pays one round trip here.
        int rows = jdbc.update(INSERT, ps -> {
            Instant created = micros(a.createdAt());
            ps.setString(1, a.id());
            ps.setString(2, a.kind().wire());
            ps.setString(3, a.target());
            ps.setString(4, write(a.params()));
            ps.setString(5, a.reason());
            ps.setString(6, a.requestedBy());
            ps.setString(7, a.idempotencyKey());
            ps.setString(8, a.state().wire());
            ps.setTimestamp(9, Timestamp.from(created));
            ps.setTimestamp(10, Timestamp.from(created));
            setInstant(ps, 11, micros(a.deadline()));
            ps.setString(12, a.impact() == null ? null : write(a.impact()));
            ps.setString(13, a.outcome());
            ps.setTimestamp(14, Timestamp.from(created));
            ps.setString(15, a.requestedBy());
            ps.setString(16, a.reason());
            ps.setString(17, a.kind().wire() + " " + a.state().wire());
        });
        if (rows == 1) {
            // As stored (timestamps at the database's microsecond precision): no read back on the way to the executor.
            return new Inserted(
                    new ActionView(
                            a.id(),
                            a.kind(),
                            a.target(),
                            a.params(),
                            a.reason(),
                            a.requestedBy(),
                            a.state(),
                            micros(a.createdAt()),
                            micros(a.createdAt()),
                            micros(a.deadline()),
                            a.impact(),
                            List.of(),
                            a.outcome()),
                    Inserted.Kind.CREATED);
        }
        if (a.idempotencyKey() != null) {
            Optional<ActionView> same = findByKey(a.requestedBy(), a.idempotencyKey());
            if (same.isPresent()) {
                return new Inserted(same.get(), Inserted.Kind.REPLAYED);
            }
        }
        Optional<ActionView> holder = inFlightOn(a.target());
        if (holder.isPresent()) {
            return new Inserted(holder.get(), Inserted.Kind.TARGET_BUSY);
        }
        // The conflicting row finished between our insert and our look: the caller may simply try again.
        throw jdbc.unavailable(new SQLException("action conflict resolved itself; retry", "40001"));
    }

    private static final String INSERT = "WITH a AS (INSERT INTO action (id, kind, target, params, reason,"
            + " requested_by, idempotency_key, state, created_at, updated_at, deadline, impact, outcome)"
            + " VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) ON CONFLICT DO NOTHING"
            + " RETURNING id, target) INSERT INTO audit_log (time, actor, what, target, action_id, reason,"
            + " before, after) SELECT ?, ?, 'action.requested', a.target, a.id, ?, NULL, ? FROM a";

    public Optional<ActionView> find(String id) {
        return one("SELECT " + COLUMNS + " FROM action WHERE id = ?", id);
    }

    private Optional<ActionView> findByKey(String requestedBy, String key) {
        return one(
                "SELECT " + COLUMNS + " FROM action WHERE requested_by = ? AND idempotency_key = ?", requestedBy, key);
    }

    public Optional<ActionView> inFlightOn(String target) {
        return one("SELECT " + COLUMNS + " FROM action WHERE target = ? AND state IN ('pending', 'running')", target);
    }

    /** Ids of unfinished actions, oldest first. */
    public List<String> unfinished() {
        return jdbc.list(
                "SELECT id FROM action WHERE state IN ('pending', 'running') ORDER BY seq", rs -> rs.getString(1));
    }

    /**
     * Moves an action from one state to another if it is still in {@code from}, with its audit entry, in one
     * transaction. Returns false when somebody else moved it first.
     */
    public boolean transition(String id, ActionState from, ActionState to, String outcome, String actor, Instant now) {
        return move(id, from, to, outcome, actor, now, false, 0);
    }

    /**
     * {@link #transition} by the leader of {@code term}.
     *
     * @throws Fence.FencedException when {@code term} no longer leads (the write is not made)
     */
    public boolean transition(
            String id, ActionState from, ActionState to, String outcome, String actor, Instant now, long term) {
        return move(id, from, to, outcome, actor, now, false, term);
    }

    /**
     * Starts a pending action unless its cancellation was requested, with its audit entry, in one statement, as the
     * leader of {@code term}. Returns false when it was cancelled or somebody else moved it first
     * ({@link #cancelRequested} tells which).
     *
     * @throws Fence.FencedException when {@code term} no longer leads (the write is not made)
     */
    public boolean start(String id, String actor, Instant now, long term) {
        return move(id, ActionState.PENDING, ActionState.RUNNING, "running", actor, now, true, term);
    }

    /** Whether {@code term} still leads under a live lease. */
    boolean leads(Connection c, long term) throws SQLException {
        return Jdbc.one(c, "SELECT " + Fence.CONDITION, rs -> rs.getBoolean(1), term)
                .orElse(false);
    }

    /** A term of 0 is a write outside leadership (an operator cancelling a pending action): not fenced. */
    private boolean move(
            String id,
            ActionState from,
            ActionState to,
            String outcome,
            String actor,
            Instant now,
            boolean unlessCancelled,
            long term) {
        if (!to.canFollow(from)) {
            throw new IllegalStateException("an action cannot go from " + from + " to " + to);
        }
        // One statement: the state change and its audit entry commit together, in one round trip.
        String sql = "WITH u AS (UPDATE action SET state = ?, outcome = ?,"
                + " updated_at = ? WHERE id = ? AND state = ?" + (unlessCancelled ? " AND NOT cancel_requested" : "")
                + (term > 0 ? " AND " + Fence.CONDITION.replace("?", String.valueOf(term)) : "")
                + " RETURNING target) INSERT INTO audit_log (time, actor, what, target, action_id, reason, before,"
                + " after) SELECT ?, ?, ?, u.target, ?, ?, ?, ? FROM u";
        return jdbc.withConnection(c -> {
            int rows = Jdbc.update(c, sql, ps -> {
                ps.setString(1, to.wire());
                ps.setString(2, outcome);
                ps.setTimestamp(3, Timestamp.from(now));
                ps.setString(4, id);
                ps.setString(5, from.wire());
                ps.setTimestamp(6, Timestamp.from(now));
                ps.setString(7, actor);
                ps.setString(8, to.terminal() ? "action." + to.wire() : "action.started");
                ps.setString(9, id);
                ps.setString(10, outcome);
                ps.setString(11, from.wire());
                ps.setString(12, to.wire());
            });
            if (rows == 1) {
                return true;
            }
            if (term > 0 && !leads(c, term)) {
                throw new Fence.FencedException(term);
            }
            return false;
        });
    }

    /** Marks an action for cancellation; the executor sees it between steps. */
    public void requestCancel(String id) {
        jdbc.update("UPDATE action SET cancel_requested = TRUE WHERE id = ?", id);
    }

    public boolean cancelRequested(String id) {
        return jdbc.one("SELECT cancel_requested FROM action WHERE id = ?", rs -> rs.getBoolean(1), id)
                .orElse(false);
    }

    /**
     * Writes a step (insert or update by its name) and its audit entry when it ends, as the leader of {@code term}.
     *
     * @throws Fence.FencedException when {@code term} no longer leads (the write is not made)
     */
    public void saveStep(String actionId, String target, ActionStepView step, String actor, long term) {
        boolean audited = step.state().terminal();
        // One statement: the step, the action's update time and (for a finished step) its audit entry.
        String sql =
                "WITH s AS (INSERT INTO action_step (action_id, seq, name, state, started_at, ended_at, detail, result)"
                        + " SELECT ?, ?, ?, ?, ?, ?, ?, ?::jsonb WHERE "
                        + Fence.CONDITION.replace("?", String.valueOf(term))
                        + " ON CONFLICT (action_id, name) DO UPDATE SET state = EXCLUDED.state,"
                        + " ended_at = EXCLUDED.ended_at, detail = EXCLUDED.detail, result = EXCLUDED.result RETURNING action_id)"
                        + (audited
                                ? ", u AS (UPDATE action SET updated_at = ? WHERE id IN (SELECT action_id FROM s) RETURNING id)"
                                        + " INSERT INTO audit_log (time, actor, what, target, action_id, reason, before, after)"
                                        + " SELECT ?, ?, 'action.step', ?, u.id, NULL, ?, ? FROM u"
                                : " UPDATE action SET updated_at = ? WHERE id IN (SELECT action_id FROM s)");
        jdbc.withConnection(c -> {
            int rows = Jdbc.update(c, sql, ps -> {
                ps.setString(1, actionId);
                ps.setInt(2, step.seq());
                ps.setString(3, step.name());
                ps.setString(4, step.state().wire());
                setInstant(ps, 5, step.startedAt());
                setInstant(ps, 6, step.endedAt());
                ps.setString(7, step.detail());
                ps.setString(8, StepResult.toJson(step.result()));
                ps.setTimestamp(9, Timestamp.from(step.endedAt() != null ? step.endedAt() : step.startedAt()));
                if (audited) {
                    ps.setTimestamp(10, Timestamp.from(step.endedAt()));
                    ps.setString(11, actor);
                    ps.setString(12, target);
                    ps.setString(13, step.name());
                    ps.setString(14, step.state().wire() + (step.detail().isEmpty() ? "" : ": " + step.detail()));
                }
            });
            if (rows == 0 && !leads(c, term)) {
                throw new Fence.FencedException(term);
            }
            return null;
        });
    }

    public Page<ActionView> list(ActionQuery q) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM action WHERE TRUE");
        List<Object> args = new ArrayList<>();
        if (q.kind() != null) {
            sql.append(" AND kind = ?");
            args.add(q.kind().wire());
        }
        if (q.state() != null) {
            sql.append(" AND state = ?");
            args.add(q.state().wire());
        }
        if (q.target() != null) {
            sql.append(" AND target = ?");
            args.add(q.target());
        }
        if (q.requestedBy() != null) {
            sql.append(" AND requested_by = ?");
            args.add(q.requestedBy());
        }
        if (q.from() != null) {
            sql.append(" AND created_at >= ?");
            args.add(Timestamp.from(q.from()));
        }
        if (q.to() != null) {
            sql.append(" AND created_at < ?");
            args.add(Timestamp.from(q.to()));
        }
        if (q.cursor() != null) {
            sql.append(" AND seq < ?");
            args.add(Cursor.longs(q.cursor(), 1)[0]);
        }
        addTargetScope(sql, args, q.namespaces(), q.nodes());
        int limit = Math.max(1, Math.min(q.limit(), 500));
        sql.append(" ORDER BY seq DESC LIMIT ").append(limit + 1);
        return jdbc.withConnection(c -> {
            List<Long> seqs = new ArrayList<>();
            List<ActionView> items = Jdbc.list(
                    c,
                    sql.toString(),
                    rs -> {
                        seqs.add(rs.getLong("seq"));
                        return read(rs, List.of());
                    },
                    args.toArray());
            String next = null;
            if (items.size() > limit) {
                items = new ArrayList<>(items.subList(0, limit));
                next = Cursor.of(seqs.get(limit - 1));
            }
            List<ActionView> withSteps = new ArrayList<>(items.size());
            for (ActionView v : items) {
                withSteps.add(withSteps(c, v));
            }
            return new Page<>(withSteps, next);
        });
    }

    // ----------------------------------------------------------------------------------------------- audit

    public void audit(AuditEntry e) {
        jdbc.update(
                "INSERT INTO audit_log (time, actor, what, target, action_id, reason, before, after)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                ps -> {
                    ps.setTimestamp(1, Timestamp.from(e.time()));
                    ps.setString(2, e.actor());
                    ps.setString(3, e.what());
                    ps.setString(4, e.target());
                    ps.setString(5, e.actionId());
                    ps.setString(6, e.reason());
                    ps.setString(7, e.before());
                    ps.setString(8, e.after());
                });
    }

    public Page<AuditEntry> audit(AuditQuery q) {
        StringBuilder sql = new StringBuilder("SELECT seq, time, actor, what, target, action_id, reason, before, after"
                + " FROM audit_log WHERE TRUE");
        List<Object> args = new ArrayList<>();
        addEq(sql, args, "actor", q.actor());
        addEq(sql, args, "what", q.what());
        addEq(sql, args, "target", q.target());
        addEq(sql, args, "action_id", q.actionId());
        if (q.from() != null) {
            sql.append(" AND time >= ?");
            args.add(Timestamp.from(q.from()));
        }
        if (q.to() != null) {
            sql.append(" AND time < ?");
            args.add(Timestamp.from(q.to()));
        }
        if (q.cursor() != null) {
            sql.append(" AND seq < ?");
            args.add(Cursor.longs(q.cursor(), 1)[0]);
        }
        if (q.namespaces() != null) {
            sql.append(" AND action_id IS NOT NULL");
            addTargetScope(sql, args, q.namespaces(), q.nodes());
        }
        int limit = Math.max(1, Math.min(q.limit(), 1000));
        sql.append(" ORDER BY seq DESC LIMIT ").append(limit + 1);
        List<AuditEntry> items = jdbc.list(
                sql.toString(),
                rs -> new AuditEntry(
                        rs.getLong(1),
                        rs.getTimestamp(2).toInstant(),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8),
                        rs.getString(9)),
                args.toArray());
        String next = null;
        if (items.size() > limit) {
            items = new ArrayList<>(items.subList(0, limit));
            next = Cursor.of(items.get(limit - 1).seq());
        }
        return new Page<>(items, next);
    }

    /**
     * Limits a query to targets in scope, before it is paged: jobs ({@code namespace/name}) of {@code namespaces} and
     * the nodes {@code nodes} names. Nothing is added when {@code namespaces} is null (every target).
     */
    private static void addTargetScope(
            StringBuilder sql, List<Object> args, Set<String> namespaces, Set<String> nodes) {
        if (namespaces == null) {
            return;
        }
        List<String> any = new ArrayList<>();
        if (!namespaces.isEmpty()) {
            any.add("(strpos(target, '/') > 0 AND split_part(target, '/', 1) IN (" + marks(namespaces.size()) + "))");
            args.addAll(namespaces);
        }
        if (nodes != null && !nodes.isEmpty()) {
            any.add("(strpos(target, '/') = 0 AND target IN (" + marks(nodes.size()) + "))");
            args.addAll(nodes);
        }
        sql.append(any.isEmpty() ? " AND FALSE" : " AND (" + String.join(" OR ", any) + ")");
    }

    private static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    private static void addEq(StringBuilder sql, List<Object> args, String column, String value) {
        if (value != null) {
            sql.append(" AND ").append(column).append(" = ?");
            args.add(value);
        }
    }

    // ----------------------------------------------------------------------------------------------- reading

    private Optional<ActionView> one(String sql, Object... args) {
        return jdbc.withConnection(c -> {
            Optional<ActionView> v = Jdbc.one(c, sql, rs -> read(rs, List.of()), args);
            return v.isEmpty() ? v : Optional.of(withSteps(c, v.get()));
        });
    }

    private static ActionView withSteps(Connection c, ActionView v) throws SQLException {
        List<ActionStepView> steps = Jdbc.list(
                c,
                "SELECT seq, name, state, started_at, ended_at, detail, result"
                        + " FROM action_step WHERE action_id = ? ORDER BY seq",
                rs -> new ActionStepView(
                        rs.getInt(1),
                        rs.getString(2),
                        StepState.valueOf(rs.getString(3).toUpperCase(Locale.ROOT)),
                        Jdbc.instant(rs, 4),
                        Jdbc.instant(rs, 5),
                        rs.getString(6),
                        StepResult.fromJson(rs.getString(7))),
                v.id());
        return new ActionView(
                v.id(),
                v.kind(),
                v.target(),
                v.params(),
                v.reason(),
                v.requestedBy(),
                v.state(),
                v.createdAt(),
                v.updatedAt(),
                v.deadline(),
                v.impact(),
                steps,
                v.outcome());
    }

    private ActionView read(ResultSet rs, List<ActionStepView> steps) throws SQLException {
        String impact = rs.getString("impact");
        return new ActionView(
                rs.getString("id"),
                ActionKind.fromWire(rs.getString("kind")).orElseThrow(),
                rs.getString("target"),
                readParams(rs.getString("params")),
                rs.getString("reason"),
                rs.getString("requested_by"),
                ActionState.valueOf(rs.getString("state").toUpperCase(Locale.ROOT)),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(),
                Jdbc.instant(rs, "deadline"),
                impact == null ? null : readImpact(impact),
                steps,
                rs.getString("outcome"));
    }

    private Map<String, String> readParams(String s) {
        try {
            return json.readValue(s, new TypeReference<Map<String, String>>() {});
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable action parameters", e);
        }
    }

    private Impact readImpact(String s) {
        try {
            return json.readValue(s, Impact.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable action impact", e);
        }
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An instant at the database's precision, so what is handed on equals what a read would give. */
    private static Instant micros(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
    }

    private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setTimestamp(i, Timestamp.from(t));
        }
    }
}
