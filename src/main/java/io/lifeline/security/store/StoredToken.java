package io.lifeline.security.store;

import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Role;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/**
 * A row of {@code api_token} (V2, V16): an API token as stored, only its secret's SHA-256. Read and written by
 * {@link TokenRepository}; everything above the store sees {@link ApiToken}.
 */
@Entity
@Table(name = "api_token")
@NamedNativeQuery(
        name = StoredToken.LOCK_BOOTSTRAP,
        // Held until the transaction ends, so that replicas starting together create one first admin token.
        query = "SELECT 1 FROM pg_advisory_xact_lock(:key)")
@NamedNativeQuery(
        name = StoredToken.TOUCH,
        // One statement for the whole batch (one round trip), and a time never moves backwards whichever replica
        // writes first: the comparison is in the statement, not read and written back.
        query = "UPDATE api_token t SET last_used_at = GREATEST(COALESCE(t.last_used_at, u.at), u.at)"
                + " FROM unnest(CAST(:ids AS text[]), CAST(:times AS timestamptz[])) AS u(id, at) WHERE t.id = u.id")
public class StoredToken extends PanacheEntityBase {

    static final String LOCK_BOOTSTRAP = "StoredToken.lockBootstrap";
    static final String TOUCH = "StoredToken.touch";

    @Id
    public String id;

    public String name;

    /** The role's wire name ({@code viewer}, {@code operator}, {@code admin}, {@code ingest}). */
    public String role;

    public String[] namespaces;

    @Column(name = "secret_sha256")
    public byte[] secretSha256;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "created_by")
    public String createdBy;

    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    @Column(name = "revoked_by")
    public String revokedBy;

    @Column(name = "last_used_at")
    public Instant lastUsedAt;

    public String[] nodes;

    public String[] sources;

    /** The row that stores {@code t}. */
    static StoredToken of(ApiToken t) {
        StoredToken row = new StoredToken();
        row.id = t.id();
        row.name = t.name();
        row.role = t.role().wireName();
        row.namespaces = t.namespaces().toArray(new String[0]);
        row.secretSha256 = t.secretSha256();
        row.createdAt = t.createdAt();
        row.createdBy = t.createdBy();
        row.expiresAt = t.expiresAt();
        row.revokedAt = t.revokedAt();
        row.revokedBy = t.revokedBy();
        row.lastUsedAt = t.lastUsedAt();
        row.nodes = t.nodes().toArray(new String[0]);
        row.sources = t.sources().toArray(new String[0]);
        return row;
    }

    /** The token this row stores. */
    ApiToken token() {
        return new ApiToken(
                id,
                name,
                Role.fromWireName(role),
                texts(namespaces),
                secretSha256,
                createdAt,
                createdBy,
                expiresAt,
                revokedAt,
                revokedBy,
                lastUsedAt,
                texts(nodes),
                texts(sources));
    }

    private static List<String> texts(String[] a) {
        return a == null ? List.of() : List.of(a);
    }
}
