package io.lifeline.security;

import io.agroal.api.AgroalDataSource;
import io.lifeline.eventlog.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Tokens and the security audit in PostgreSQL (tables {@code api_token}, {@code security_audit}; see V2). */
@ApplicationScoped
public class SecurityStore {

    /** Serialises first-admin creation across replicas starting at the same time. */
    private static final long BOOTSTRAP_LOCK = 0x6c6c745f626f6f74L;

    private static final String COLUMNS =
            "id, name, role, namespaces, secret_sha256, created_at, created_by, expires_at, "
                    + "revoked_at, revoked_by, last_used_at, nodes, sources";

    /** One audit record. */
    public record AuditRecord(long seq, Instant time, String action, String actor, String tokenId, String detail) {}

    private final Jdbc jdbc;

    SecurityStore(AgroalDataSource dataSource) {
        this.jdbc = new Jdbc(dataSource, "the token store");
    }

    /** Stores a new token and its audit record in one transaction. */
    public void create(ApiToken t, String auditDetail) {
        jdbc.inTransaction(c -> {
            insert(c, t);
            audit(c, t.createdAt(), "token.created", t.createdBy(), t.id(), auditDetail);
            return null;
        });
    }

    /**
     * Creates the token {@code make} supplies if no active admin token exists, under a database-wide lock so that
     * two replicas starting together create one. Returns the created token, or {@code null} if one existed.
     */
    public ApiToken createAdminIfNone(Instant now, Supplier<ApiToken> make, String auditDetail) {
        return jdbc.inTransaction(c -> {
            Jdbc.one(c, "SELECT pg_advisory_xact_lock(?)", rs -> Boolean.TRUE, BOOTSTRAP_LOCK);
            if (Jdbc.one(
                            c,
                            "SELECT 1 FROM api_token WHERE role = 'admin' AND revoked_at IS NULL"
                                    + " AND (expires_at IS NULL OR expires_at > ?) LIMIT 1",
                            rs -> Boolean.TRUE,
                            now)
                    .isPresent()) {
                return null;
            }
            ApiToken t = make.get();
            insert(c, t);
            audit(c, now, "token.created", t.createdBy(), t.id(), auditDetail);
            return t;
        });
    }

    /** The token with this id, or {@code null}. */
    public ApiToken find(String id) {
        return jdbc.one("SELECT " + COLUMNS + " FROM api_token WHERE id = ?", SecurityStore::read, id)
                .orElse(null);
    }

    /** The ids of tokens not revoked (expired ones included: they answer "expired", not "unknown"). */
    public java.util.Set<String> activeIds() {
        return new java.util.HashSet<>(
                jdbc.list("SELECT id FROM api_token WHERE revoked_at IS NULL", rs -> rs.getString(1)));
    }

    /** Up to {@code limit} tokens, newest first. */
    public List<ApiToken> list(int limit) {
        return jdbc.list(
                "SELECT " + COLUMNS + " FROM api_token ORDER BY created_at DESC, id LIMIT ?",
                SecurityStore::read,
                limit);
    }

    /**
     * Revokes a token and records it. Returns {@code false} when no token has this id; revoking a revoked token
     * changes nothing and returns {@code true}.
     */
    public boolean revoke(String id, String by, Instant at) {
        return jdbc.inTransaction(c -> {
            if (Jdbc.update(
                            c,
                            "UPDATE api_token SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL",
                            at,
                            by,
                            id)
                    > 0) {
                audit(c, at, "token.revoked", by, id, null);
                return true;
            }
            return Jdbc.one(c, "SELECT 1 FROM api_token WHERE id = ?", rs -> Boolean.TRUE, id)
                    .isPresent();
        });
    }

    /** Writes last-use times in one batch; a time never moves backwards. */
    public void touch(Map<String, Instant> lastUsed) {
        if (lastUsed.isEmpty()) {
            return;
        }
        jdbc.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE api_token SET last_used_at = " + "GREATEST(COALESCE(last_used_at, ?), ?) WHERE id = ?")) {
                for (Map.Entry<String, Instant> e : lastUsed.entrySet()) {
                    Timestamp t = Timestamp.from(e.getValue());
                    ps.setTimestamp(1, t);
                    ps.setTimestamp(2, t);
                    ps.setString(3, e.getKey());
                    ps.addBatch();
                }
                return ps.executeBatch();
            }
        });
    }

    /** Records a security event on its own. */
    public void audit(Instant time, String action, String actor, String tokenId, String detail) {
        jdbc.withConnection(c -> {
            audit(c, time, action, actor, tokenId, detail);
            return null;
        });
    }

    /** Up to {@code limit} audit records, newest first. */
    public List<AuditRecord> audit(int limit) {
        return jdbc.list(
                "SELECT seq, time, action, actor, token_id, detail FROM security_audit"
                        + " ORDER BY time DESC, seq DESC LIMIT ?",
                rs -> new AuditRecord(
                        rs.getLong(1),
                        rs.getTimestamp(2).toInstant(),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6)),
                limit);
    }

    private static void audit(Connection c, Instant time, String action, String actor, String tokenId, String detail)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO security_audit (time, action, actor, token_id, detail) VALUES (?, ?, ?, ?, ?)")) {
            ps.setTimestamp(1, Timestamp.from(time));
            ps.setString(2, action);
            ps.setString(3, actor);
            ps.setString(4, tokenId);
            ps.setString(5, detail);
            ps.executeUpdate();
        }
    }

    private static void insert(Connection c, ApiToken t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO api_token (" + COLUMNS + ") " + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, t.id());
            ps.setString(2, t.name());
            ps.setString(3, t.role().wireName());
            ps.setArray(4, c.createArrayOf("text", t.namespaces().toArray(new String[0])));
            ps.setBytes(5, t.secretSha256());
            ps.setTimestamp(6, Timestamp.from(t.createdAt()));
            ps.setString(7, t.createdBy());
            ps.setTimestamp(8, t.expiresAt() == null ? null : Timestamp.from(t.expiresAt()));
            ps.setTimestamp(9, t.revokedAt() == null ? null : Timestamp.from(t.revokedAt()));
            ps.setString(10, t.revokedBy());
            ps.setTimestamp(11, t.lastUsedAt() == null ? null : Timestamp.from(t.lastUsedAt()));
            ps.setArray(12, c.createArrayOf("text", t.nodes().toArray(new String[0])));
            ps.setArray(13, c.createArrayOf("text", t.sources().toArray(new String[0])));
            ps.executeUpdate();
        }
    }

    private static ApiToken read(ResultSet rs) throws SQLException {
        Array ns = rs.getArray("namespaces");
        List<String> namespaces = ns == null ? List.of() : Arrays.asList((String[]) ns.getArray());
        return new ApiToken(
                rs.getString("id"),
                rs.getString("name"),
                Role.fromWireName(rs.getString("role")),
                namespaces,
                rs.getBytes("secret_sha256"),
                instant(rs.getTimestamp("created_at")),
                rs.getString("created_by"),
                instant(rs.getTimestamp("expires_at")),
                instant(rs.getTimestamp("revoked_at")),
                rs.getString("revoked_by"),
                instant(rs.getTimestamp("last_used_at")),
                texts(rs.getArray("nodes")),
                texts(rs.getArray("sources")));
    }

    private static List<String> texts(Array a) throws SQLException {
        return a == null ? List.of() : Arrays.asList((String[]) a.getArray());
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
