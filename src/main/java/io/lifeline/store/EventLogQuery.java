package io.lifeline.store;

import java.time.Instant;

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
 */
public record EventLogQuery(String subject, String type, Instant from, Instant to, int limit, boolean descending,
                            Cursor after) {

    /** A position in the log: event time, then insertion sequence. */
    public record Cursor(Instant time, long seq) {
    }
}
