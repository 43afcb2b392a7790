package io.lifeline.security;

import io.lifeline.security.identity.ApiToken;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens looked up in the store, kept briefly so that a request does not cost a database round trip. Bounded:
 * past {@code maxEntries} the oldest-looking entries go first. Unknown ids are remembered too (as a {@code null}
 * token), so a flood of made-up tokens does not become a flood of queries.
 *
 * <p>An entry is <em>fresh</em> for {@code ttl} after it was loaded; after that it must be reloaded, but while the
 * store is unreachable it may still be used until {@code staleIfError} after it was last loaded successfully.
 */
public final class TokenCache {

    /**
     * One remembered lookup.
     *
     * @param token      the stored token, or {@code null} when no token has this id
     * @param loadedAt   when the store last answered for this id
     * @param freshUntil until when it is used without asking the store again
     */
    public record Entry(ApiToken token, Instant loadedAt, Instant freshUntil) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Duration staleIfError;
    private final int maxEntries;

    public TokenCache(Duration ttl, Duration staleIfError, int maxEntries) {
        this.ttl = ttl;
        this.staleIfError = staleIfError;
        this.maxEntries = Math.max(1, maxEntries);
    }

    /** The entry for {@code id} if it is fresh at {@code now}, else {@code null}. */
    public Entry fresh(String id, Instant now) {
        Entry e = entries.get(id);
        return e != null && now.isBefore(e.freshUntil()) ? e : null;
    }

    /**
     * The entry for {@code id} when the store has just failed: usable if it was loaded within {@code staleIfError}.
     * It is then trusted for another {@code ttl}, so that an outage costs one failed query per token and period,
     * not one per request.
     */
    public Entry staleAfterError(String id, Instant now) {
        Entry e = entries.get(id);
        if (e == null || e.token() == null || now.isAfter(e.loadedAt().plus(staleIfError))) {
            return null;
        }
        Entry extended = new Entry(e.token(), e.loadedAt(), now.plus(ttl));
        entries.put(id, extended);
        return extended;
    }

    /** Records what the store answered for {@code id} ({@code token} is {@code null} for an unknown id). */
    public void put(String id, ApiToken token, Instant now) {
        if (entries.size() >= maxEntries && !entries.containsKey(id)) {
            evict(now);
        }
        entries.put(id, new Entry(token, now, now.plus(ttl)));
    }

    /** Whether the store has answered a token for {@code id} before, fresh or not (an id known to exist). */
    public boolean knows(String id) {
        Entry e = entries.get(id);
        return e != null && e.token() != null;
    }

    /** Forgets {@code id}: its next use asks the store (called on revocation). */
    public void invalidate(String id) {
        entries.remove(id);
    }

    public int size() {
        return entries.size();
    }

    private void evict(Instant now) {
        // First whatever is past any use, then unknown ids, then anything, until a tenth of the room is free.
        int target = maxEntries - Math.max(1, maxEntries / 10);
        entries.values().removeIf(e -> now.isAfter(e.loadedAt().plus(staleIfError)) && now.isAfter(e.freshUntil()));
        entries.values().removeIf(e -> entries.size() > target && e.token() == null);
        Iterator<String> it = entries.keySet().iterator();
        while (entries.size() > target && it.hasNext()) {
            it.next();
            it.remove();
        }
    }
}
