package io.lifeline.action.view;

import java.time.Instant;
import java.util.Set;

/**
 * Filters for the audit log; every field may be null. Newest first, keyset-paged by {@code cursor} (a page's
 * {@code nextCursor}, or the bare sequence number earlier releases gave out).
 *
 * @param namespaces only the entries of actions on jobs in these namespaces or on {@code nodes} (policy changes are
 *                   left out); null for every entry
 * @param nodes      with {@code namespaces}: the nodes whose actions' entries are also returned
 */
public record AuditQuery(
        String actor,
        String what,
        String target,
        String actionId,
        Instant from,
        Instant to,
        int limit,
        String cursor,
        Set<String> namespaces,
        Set<String> nodes) {

    /** A query over every entry. */
    public AuditQuery(
            String actor,
            String what,
            String target,
            String actionId,
            Instant from,
            Instant to,
            int limit,
            String cursor) {
        this(actor, what, target, actionId, from, to, limit, cursor, null, null);
    }
}
