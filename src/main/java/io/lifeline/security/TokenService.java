package io.lifeline.security;

import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.security.store.SecurityStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Creates, lists, revokes and verifies API tokens. Verification goes through a short-lived in-memory cache; a
 * revocation made here drops the token from this replica's cache at once, other replicas notice within the cache
 * time-to-live.
 */
@ApplicationScoped
public class TokenService {

    private static final Logger LOG = Logger.getLogger(TokenService.class);
    private static final int MAX_NAME = 100;
    private static final int LIST_LIMIT = 1000;

    /** Who created the first admin token. */
    public static final String BOOTSTRAP = "bootstrap";

    /**
     * A token just created: the stored record and the full token string, which is shown once and never again.
     */
    public record Created(ApiToken token, String secretToken) {

        @Override
        public String toString() {
            return "Created[" + token + "]";
        }
    }

    /**
     * The outcome of checking a presented token: a caller, or why not.
     *
     * @param caller  the authenticated caller, or {@code null}
     * @param failure why it was refused, or {@code null}
     */
    public record Verification(Caller caller, SecurityMetrics.AuthFailure failure) {

        public static Verification ok(Caller caller) {
            return new Verification(caller, null);
        }

        static Verification failed(SecurityMetrics.AuthFailure failure) {
            return new Verification(null, failure);
        }

        public boolean ok() {
            return caller != null;
        }
    }

    private final SecurityStore store;
    private final TokenCache cache;
    private final LastUsedRecorder lastUsed;
    private final Clock clock;
    /** Reloaded at most once a second, only while some address is throttled and shows an id not known. */
    private final KnownTokenIds knownIds = new KnownTokenIds(1_000_000_000L);

    TokenService(SecurityStore store, SecurityConfig config, LastUsedRecorder lastUsed, Clock clock) {
        this.store = store;
        this.lastUsed = lastUsed;
        this.clock = clock;
        this.cache = new TokenCache(
                config.tokenCache().ttl(),
                config.tokenCache().staleIfError(),
                config.tokenCache().maxEntries());
    }

    /**
     * Creates a token. Admin tokens are always fleet-wide; names are required; an expiry must lie in the future.
     *
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public Created create(Caller by, String name, Role role, List<String> namespaces, Instant expiresAt) {
        return create(by, name, role, namespaces, List.of(), List.of(), expiresAt);
    }

    /**
     * Creates a token, an ingest token possibly bound to {@code nodes} (a node agent's: it sends those nodes' node and
     * GPU events only) or to {@code sources} (a connector's: it sends events of those CloudEvents sources only).
     *
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public Created create(
            Caller by,
            String name,
            Role role,
            List<String> namespaces,
            List<String> nodes,
            List<String> sources,
            Instant expiresAt) {
        Instant now = clock.instant();
        String cleanName = requireName(name);
        List<String> ns = cleanNamespaces(namespaces);
        if (role == Role.ADMIN && !ns.isEmpty()) {
            throw new IllegalArgumentException("namespaces: admin tokens are fleet-wide; leave namespaces empty");
        }
        List<String> boundNodes = TokenBindings.nodes(nodes);
        List<String> boundSources = TokenBindings.sources(sources);
        if ((!boundNodes.isEmpty() || !boundSources.isEmpty()) && role != Role.INGEST) {
            throw new IllegalArgumentException((boundNodes.isEmpty() ? "sources" : "nodes") + ": only ingest tokens are"
                    + " bound to nodes or sources (node agents and connectors)");
        }
        if (!boundNodes.isEmpty() && !ns.isEmpty()) {
            throw new IllegalArgumentException("nodes: a token bound to nodes sends node and GPU events, which concern"
                    + " every namespace on them; leave namespaces empty");
        }
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            throw new IllegalArgumentException("expiresAt: must lie in the future, got " + expiresAt);
        }
        TokenFormat.Generated g = TokenFormat.generate();
        ApiToken t = new ApiToken(
                g.id(),
                cleanName,
                role,
                ns,
                g.secretSha256(),
                now,
                by.actor(),
                expiresAt,
                null,
                null,
                null,
                boundNodes,
                boundSources);
        store.create(t, describe(t));
        knownIds.add(t.id());
        LOG.infof(
                "API token created: id=%s name='%s' role=%s namespaces=%s%s expires=%s by '%s'",
                t.id(),
                t.name(),
                role.wireName(),
                ns,
                (boundNodes.isEmpty() ? "" : " nodes=" + boundNodes.size())
                        + (boundSources.isEmpty() ? "" : " sources=" + boundSources.size()),
                expiresAt == null ? "never" : expiresAt,
                by.actor());
        return new Created(t, g.token());
    }

    /**
     * Creates the first admin token if no usable admin token exists. {@code beforeCommit} receives the full token
     * before it is committed (to write it to a file: if that fails, nothing is stored).
     *
     * @return the created token's id, or {@code null} when an admin token already existed
     */
    public String createFirstAdminIfNone(Consumer<String> beforeCommit) {
        Instant now = clock.instant();
        ApiToken created = store.createAdminIfNone(
                now,
                () -> {
                    TokenFormat.Generated g = TokenFormat.generate();
                    beforeCommit.accept(g.token());
                    return new ApiToken(
                            g.id(),
                            "first admin",
                            Role.ADMIN,
                            List.of(),
                            g.secretSha256(),
                            now,
                            BOOTSTRAP,
                            null,
                            null,
                            null,
                            null);
                },
                "first admin token, written at start-up");
        if (created != null) {
            knownIds.add(created.id());
        }
        return created == null ? null : created.id();
    }

    /** Every token (up to 1,000), newest first, with last-use times not yet written merged in. */
    public List<ApiToken> list() {
        List<ApiToken> out = new ArrayList<>();
        for (ApiToken t : store.list(LIST_LIMIT)) {
            out.add(withPendingUse(t));
        }
        return out;
    }

    /** The token with this id, or {@code null}. */
    public ApiToken get(String id) {
        ApiToken t = store.find(id);
        return t == null ? null : withPendingUse(t);
    }

    /** Revokes a token; it stops working on this replica at once. Returns {@code false} for an unknown id. */
    public boolean revoke(Caller by, String id) {
        boolean found;
        try {
            found = store.revoke(id, by.actor(), clock.instant());
        } finally {
            cache.invalidate(id);
            knownIds.remove(id);
        }
        if (found) {
            LOG.infof("API token revoked: id=%s by '%s'", id, by.actor());
        }
        return found;
    }

    /** The security audit, newest first. */
    public List<SecurityStore.AuditRecord> audit(int limit) {
        return store.audit(limit);
    }

    /** Verifies from memory alone; {@code null} when the store must be asked (then call {@link #verify}). */
    public Verification verifyCached(TokenFormat.Parsed presented) {
        Instant now = clock.instant();
        TokenCache.Entry e = cache.fresh(presented.id(), now);
        return e == null ? null : check(e.token(), presented.secret(), now);
    }

    /** Whether this replica has verified a token with this id before (from memory; the secret is not checked). */
    public boolean seenBefore(TokenFormat.Parsed presented) {
        return cache.knows(presented.id());
    }

    /**
     * Whether a token with this id exists, from memory: verified before, or in the set of ids read from the store.
     * The secret is not checked. Used for addresses throttled by {@link FailedSignIns}: a known id is verified as
     * usual, an unknown one is refused without asking the store.
     */
    public boolean knownToExist(TokenFormat.Parsed presented) {
        return cache.knows(presented.id()) || knownIds.contains(presented.id());
    }

    /** Whether {@link #reloadKnownIds} would ask the store now (at most once a second). */
    public boolean knownIdsReloadDue() {
        return knownIdsReloadDue(System.nanoTime());
    }

    private boolean knownIdsReloadDue(long now) {
        return knownIds.reloadDue(now);
    }

    /**
     * Reads the ids of every token from the store, unless that was done within the last second or is being done:
     * a token created on another replica becomes known. Blocks: not on an event loop.
     *
     * @return whether the store was asked
     */
    public boolean reloadKnownIds() {
        try {
            return knownIds.reload(System.nanoTime(), store::activeIds);
        } catch (Exception e) {
            LOG.debugf("Token ids not reloaded: %s", e.toString());
            return false;
        }
    }

    /** How many ids the cache holds (tests: what reached the store). */
    int cachedIds() {
        return cache.size();
    }

    /** Verifies a presented token, asking the store when the cache cannot answer. Blocks: not on an event loop. */
    public Verification verify(TokenFormat.Parsed presented) {
        Instant now = clock.instant();
        TokenCache.Entry e = cache.fresh(presented.id(), now);
        if (e != null) {
            return check(e.token(), presented.secret(), now);
        }
        ApiToken stored;
        try {
            stored = store.find(presented.id());
        } catch (RuntimeException ex) {
            TokenCache.Entry stale = cache.staleAfterError(presented.id(), now);
            if (stale == null) {
                return Verification.failed(SecurityMetrics.AuthFailure.UNAVAILABLE);
            }
            return check(stale.token(), presented.secret(), now);
        }
        cache.put(presented.id(), stored, now);
        return check(stored, presented.secret(), now);
    }

    /** Notes that a verified token was used (written in batches). */
    public void used(Caller caller) {
        if (caller.tokenId() != null) {
            lastUsed.touch(caller.tokenId(), clock.instant());
        }
    }

    static Verification check(ApiToken t, String secret, Instant now) {
        if (t == null || !TokenFormat.matches(secret, t.secretSha256())) {
            return Verification.failed(SecurityMetrics.AuthFailure.INVALID);
        }
        switch (t.status(now)) {
            case REVOKED:
                return Verification.failed(SecurityMetrics.AuthFailure.REVOKED);
            case EXPIRED:
                return Verification.failed(SecurityMetrics.AuthFailure.EXPIRED);
            default:
                return Verification.ok(t.caller());
        }
    }

    private ApiToken withPendingUse(ApiToken t) {
        Instant p = lastUsed.pending(t.id());
        if (p == null || (t.lastUsedAt() != null && !p.isAfter(t.lastUsedAt()))) {
            return t;
        }
        return new ApiToken(
                t.id(),
                t.name(),
                t.role(),
                t.namespaces(),
                t.secretSha256(),
                t.createdAt(),
                t.createdBy(),
                t.expiresAt(),
                t.revokedAt(),
                t.revokedBy(),
                p,
                t.nodes(),
                t.sources());
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name: required (who or what will use the token)");
        }
        String n = name.strip();
        if (n.length() > MAX_NAME || n.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("name: at most " + MAX_NAME + " printable characters");
        }
        return n;
    }

    private static List<String> cleanNamespaces(List<String> namespaces) {
        if (namespaces == null) {
            return List.of();
        }
        TreeSet<String> out = new TreeSet<>();
        for (String n : namespaces) {
            out.add(Caller.requireValidNamespace(n == null ? null : n.strip()));
        }
        return List.copyOf(out);
    }

    private static String describe(ApiToken t) {
        return "name=" + t.name() + ", role=" + t.role().wireName() + ", namespaces=" + t.namespaces()
                + (t.nodes().isEmpty() ? "" : ", nodes=" + TokenBindings.shown(t.nodes()))
                + (t.sources().isEmpty() ? "" : ", sources=" + TokenBindings.shown(t.sources())) + ", expires="
                + (t.expiresAt() == null ? "never" : t.expiresAt().toString());
    }
}
