package io.lifeline.security.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * API tokens (table {@code api_token}), each method one transaction. A token's creation and revocation are written
 * with their audit record in the same transaction.
 */
@ApplicationScoped
public class TokenRepository implements PanacheRepositoryBase<StoredToken, String> {

    /** Serialises first-admin creation across replicas starting at the same time. */
    private static final long BOOTSTRAP_LOCK = 0x6c6c745f626f6f74L;

    private final SecurityAuditRepository audit;

    TokenRepository(SecurityAuditRepository audit) {
        this.audit = audit;
    }

    /** Stores a new token and its audit record. */
    @Transactional
    public void create(StoredToken token, String auditDetail) {
        persist(token);
        audit.record(token.createdAt, "token.created", token.createdBy, token.id, auditDetail);
    }

    /**
     * Stores the token {@code make} supplies if no active admin token exists at {@code now}, under a database-wide
     * lock held to the commit. Returns the stored token, or {@code null} if one existed ({@code make} is not called).
     */
    @Transactional
    public StoredToken createAdminIfNone(Instant now, Supplier<StoredToken> make, String auditDetail) {
        getEntityManager()
                .createNamedQuery(StoredToken.LOCK_BOOTSTRAP)
                .setParameter("key", BOOTSTRAP_LOCK)
                .getResultList();
        boolean exists = find("role = 'admin' and revokedAt is null and (expiresAt is null or expiresAt > ?1)", now)
                .firstResultOptional()
                .isPresent();
        if (exists) {
            return null;
        }
        StoredToken token = make.get();
        persist(token);
        audit.record(now, "token.created", token.createdBy, token.id, auditDetail);
        return token;
    }

    /** The token with this id. */
    @Transactional
    public Optional<StoredToken> byId(String id) {
        return findByIdOptional(id);
    }

    /** The ids of tokens not revoked. */
    @Transactional
    public Set<String> activeIds() {
        return new HashSet<>(getEntityManager()
                .createQuery("select t.id from StoredToken t where t.revokedAt is null", String.class)
                .getResultList());
    }

    /** Up to {@code limit} tokens, newest first. */
    @Transactional
    public List<StoredToken> newest(int limit) {
        return findAll(Sort.descending("createdAt").and("id")).page(0, limit).list();
    }

    /**
     * Revokes a token not revoked yet and records it. Returns {@code false} when no token has this id; revoking a
     * revoked token changes nothing and returns {@code true}.
     */
    @Transactional
    public boolean revoke(String id, String by, Instant at) {
        // Conditional, so that of two revocations racing one is recorded, with its time and author kept.
        if (update("revokedAt = ?1, revokedBy = ?2 where id = ?3 and revokedAt is null", at, by, id) > 0) {
            audit.record(at, "token.revoked", by, id, null);
            return true;
        }
        return count("id", id) > 0;
    }

    /** Writes last-use times in one statement; a time never moves backwards. */
    @Transactional
    public void touch(Map<String, Instant> lastUsed) {
        String[] ids = new String[lastUsed.size()];
        Instant[] times = new Instant[lastUsed.size()];
        int i = 0;
        for (Map.Entry<String, Instant> e : lastUsed.entrySet()) {
            ids[i] = e.getKey();
            times[i] = e.getValue();
            i++;
        }
        getEntityManager()
                .createNamedQuery(StoredToken.TOUCH)
                .setParameter("ids", ids)
                .setParameter("times", times)
                .executeUpdate();
    }
}
