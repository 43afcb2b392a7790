package io.lifeline.eventlog;

import java.time.Instant;
import java.util.Set;

/**
 * A filter and page position over the event log.
 *
 * @param subject     exact subject, or null
 * @param type        exact type (wire name), or null
 * @param from        inclusive lower bound on event time, or null
 * @param to          exclusive upper bound on event time, or null
 * @param limit       page size
 * @param descending  newest first
 * @param after       keyset position (the last row of the previous page), or null for the first page
 * @param namespaces  only events of jobs ({@code namespace/name} subjects) in these namespaces, or of
 *                    {@code nodes}; null for every subject
 * @param nodes       with {@code namespaces}: the node subjects also returned; ignored when {@code namespaces} is null
 */
public record EventLogQuery(
        String subject,
        String type,
        Instant from,
        Instant to,
        int limit,
        boolean descending,
        Cursor after,
        Set<String> namespaces,
        Set<String> nodes) {

    /** A query over every subject. */
    public EventLogQuery(
            String subject, String type, Instant from, Instant to, int limit, boolean descending, Cursor after) {
        this(subject, type, from, to, limit, descending, after, null, null);
    }

    /** A position in the log: event time, then insertion sequence. */
    public record Cursor(Instant time, long seq) {}
}
