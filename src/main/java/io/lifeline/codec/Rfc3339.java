package io.lifeline.codec;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.YearMonth;
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

    private static final Pattern DATE_TIME =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

    private Rfc3339() {}

    /** The instant, or null when {@code s} is null, blank or not RFC 3339. */
    public static Instant parseOrNull(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        return read(s.trim());
    }

    /**
     * Reads the timestamp by position: every event carries one and this is on the ingest path, where a regular
     * expression and {@link java.time.format.DateTimeFormatter} cost about half of decoding an event. Accepts exactly
     * what {@link #DATE_TIME} and {@code OffsetDateTime.parse} accept together ({@link #parseSlowly}, kept for the
     * test that compares the two).
     */
    private static Instant read(String t) {
        int n = t.length();
        if (n < 20
                || t.charAt(4) != '-'
                || t.charAt(7) != '-'
                || (t.charAt(10) != 'T' && t.charAt(10) != 't')
                || t.charAt(13) != ':'
                || t.charAt(16) != ':') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 2);
        int day = digits(t, 8, 2);
        int hour = digits(t, 11, 2);
        int minute = digits(t, 14, 2);
        int second = digits(t, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        int i = 19;
        int nanos = 0;
        if (t.charAt(i) == '.') {
            int from = ++i;
            while (i < n && i - from < 10 && isDigit(t.charAt(i))) {
                nanos = nanos * 10 + (t.charAt(i) - '0');
                i++;
            }
            int count = i - from;
            if (count == 0 || count > 9) {
                return null;
            }
            for (int k = count; k < 9; k++) {
                nanos *= 10;
            }
        }
        if (i >= n) {
            return null;
        }
        int offsetSeconds;
        char c = t.charAt(i);
        if (c == 'Z' || c == 'z') {
            offsetSeconds = 0;
            i++;
        } else if ((c == '+' || c == '-') && i + 6 == n && t.charAt(i + 3) == ':') {
            int oh = digits(t, i + 1, 2);
            int om = digits(t, i + 4, 2);
            if (oh < 0 || om < 0 || oh > 18 || om > 59 || oh == 18 && om > 0) {
                return null;
            }
            offsetSeconds = (c == '-' ? -1 : 1) * (oh * 3600 + om * 60);
            i += 6;
        } else {
            return null;
        }
        if (i != n
                || month < 1
                || month > 12
                || day < 1
                || day > YearMonth.of(year, month).lengthOfMonth()
                || hour > 23
                || minute > 59
                || second > 59) {
            return null;
        }
        long epochSecond = LocalDate.of(year, month, day).toEpochDay() * 86_400
                + hour * 3600L
                + minute * 60L
                + second
                - offsetSeconds;
        return Instant.ofEpochSecond(epochSecond, nanos);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The number in {@code t[from, from + count)}, or -1 when a character there is not an ASCII digit. */
    private static int digits(String t, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = t.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** The former reader (pattern, then {@code OffsetDateTime.parse}): what {@link #read} must agree with. */
    static Instant parseSlowly(String s) {
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
            throw new InvalidEventException(
                    field + ": expected an RFC 3339 timestamp with seconds and an offset such as"
                            + " 2026-01-31T12:00:00Z, got '" + DataReader.abbreviate(s) + "'");
        }
        return t;
    }
}
