package io.lifeline.codec;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one reader of RFC 3339 timestamps ({@code 2026-01-31T12:00:00Z}, {@code 2026-01-31T13:00:00.250+01:00}), for
 * events, query parameters, cloud notices and Kubernetes objects alike. Strictly RFC 3339 section 5.6: seconds are
 * required and the offset is {@code Z} or {@code ±hh:mm} (ISO 8601 forms such as {@code 18:31Z} or {@code +05} are
 * not RFC 3339); at most nine fraction digits.
 */
public final class Rfc3339 {

    private static final Pattern DATE_TIME = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

    private Rfc3339() {
    }

    /** The instant, or null when {@code s} is null, blank or not RFC 3339. */
    public static Instant parseOrNull(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        String t = s.trim();
        if (!DATE_TIME.matcher(t).matches()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(t.toUpperCase(Locale.ROOT)).toInstant();
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
            throw new InvalidEventException(field + ": expected an RFC 3339 timestamp with seconds and an offset such as"
                    + " 2026-01-31T12:00:00Z, got '" + DataReader.abbreviate(s) + "'");
        }
        return t;
    }
}
