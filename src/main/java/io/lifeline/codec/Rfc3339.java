package io.lifeline.codec;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The one reader of RFC 3339 timestamps ({@code 2026-01-31T12:00:00Z}, {@code 2026-01-31T13:00:00.250+01:00}), for
 * events, query parameters, cloud notices and Kubernetes objects alike.
 */
public final class Rfc3339 {

    private static final int MAX_ECHO = 64;

    private Rfc3339() {
    }

    /** The instant, or null when {@code s} is null, blank or not RFC 3339. */
    public static Instant parseOrNull(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s.trim()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The instant; null when {@code s} is null or blank.
     *
     * @throws InvalidEventException naming {@code field} when {@code s} is not RFC 3339
     */
    public static Instant parse(String field, String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        Instant t = parseOrNull(s);
        if (t == null) {
            throw new InvalidEventException(field + ": expected an RFC 3339 timestamp such as 2026-01-31T12:00:00Z, got '"
                    + (s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO - 3) + "...") + "'");
        }
        return t;
    }
}
