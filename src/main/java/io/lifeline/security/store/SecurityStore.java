package io.lifeline.security.store;

import io.lifeline.eventlog.StoreCalls;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.security.identity.ApiToken;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Tokens and the security audit in PostgreSQL (tables {@code api_token}, {@code security_audit}; see V2), mapped
 * with Hibernate ORM ({@link TokenRepository}, {@link SecurityAuditRepository}). Every method is one transaction and
 * fails with {@link StoreUnavailableException} when the database does not answer.
 */
@ApplicationScoped
public class SecurityStore {

    private static final String WHAT = "the token store";

    /** One audit record. */
    public record AuditRecord(long seq, Instant time, String action, String actor, String tokenId, String detail) {}

    private final TokenRepository tokens;
    private final SecurityAuditRepository audit;

    SecurityStore(TokenRepository tokens, SecurityAuditRepository audit) {
        this.tokens = tokens;
        this.audit = audit;
    }

    /** Stores a new token and its audit record in one transaction. */
    public void create(ApiToken t, String auditDetail) {
        StoreCalls.run(WHAT, () -> tokens.create(StoredToken.of(t), auditDetail));
    }

    /**
     * Creates the token {@code make} supplies if no active admin token exists, under a database-wide lock so that
     * two replicas starting together create one. Returns the created token, or {@code null} if one existed.
     */
    public ApiToken createAdminIfNone(Instant now, Supplier<ApiToken> make, String auditDetail) {
        StoredToken created = StoreCalls.call(
                WHAT, () -> tokens.createAdminIfNone(now, () -> StoredToken.of(make.get()), auditDetail));
        return created == null ? null : created.token();
    }

    /** The token with this id, or {@code null}. */
    public ApiToken find(String id) {
        return StoreCalls.call(
                WHAT, () -> tokens.byId(id).map(StoredToken::token).orElse(null));
    }

    /** The ids of tokens not revoked (expired ones included: they answer "expired", not "unknown"). */
    public Set<String> activeIds() {
        return StoreCalls.call(WHAT, tokens::activeIds);
    }

    /** Up to {@code limit} tokens, newest first. */
    public List<ApiToken> list(int limit) {
        return StoreCalls.call(WHAT, () -> {
            List<ApiToken> out = new ArrayList<>();
            for (StoredToken row : tokens.newest(limit)) {
                out.add(row.token());
            }
            return out;
        });
    }

    /**
     * Revokes a token and records it. Returns {@code false} when no token has this id; revoking a revoked token
     * changes nothing and returns {@code true}.
     */
    public boolean revoke(String id, String by, Instant at) {
        return StoreCalls.call(WHAT, () -> tokens.revoke(id, by, at));
    }

    /** Writes last-use times in one batch; a time never moves backwards. */
    public void touch(Map<String, Instant> lastUsed) {
        if (lastUsed.isEmpty()) {
            return;
        }
        StoreCalls.run(WHAT, () -> tokens.touch(lastUsed));
    }

    /** Records a security event on its own. */
    public void audit(Instant time, String action, String actor, String tokenId, String detail) {
        StoreCalls.run(WHAT, () -> audit.record(time, action, actor, tokenId, detail));
    }

    /** Up to {@code limit} audit records, newest first. */
    public List<AuditRecord> audit(int limit) {
        return StoreCalls.call(WHAT, () -> {
            List<AuditRecord> out = new ArrayList<>();
            for (StoredAuditRecord row : audit.newest(limit)) {
                out.add(row.record());
            }
            return out;
        });
    }
}
