package io.lifeline.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** Times shown relative to now by default ({@code 3m ago}, {@code in 40s}), absolute (UTC, RFC 3339) with --absolute. */
final class Times {

    private static final DateTimeFormatter ABSOLUTE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final boolean absolute;
    private final Instant now;

    Times(boolean absolute, Instant now) {
        this.absolute = absolute;
        this.now = now;
    }

    boolean absolute() {
        return absolute;
    }

    Instant now() {
        return now;
    }

    /** A wire timestamp for people; {@code -} when there is none; the text as it came when it is not a timestamp. */
    String format(String wire) {
        if (wire == null || wire.isBlank()) {
            return "-";
        }
        Instant t = parse(wire);
        return t == null ? wire : format(t);
    }

    String format(Instant t) {
        if (t == null) {
            return "-";
        }
        if (absolute) {
            return ABSOLUTE.format(t.truncatedTo(ChronoUnit.SECONDS));
        }
        Duration d = Duration.between(t, now);
        if (d.isNegative()) {
            return "in " + age(d.negated());
        }
        return age(d) + " ago";
    }

    /** Like {@link #format(String)}, to the second ({@code 13m02s ago}): for timelines and event streams. */
    String precise(String wire) {
        Instant t = parse(wire);
        if (t == null || absolute) {
            return format(wire);
        }
        Duration d = Duration.between(t, now);
        boolean future = d.isNegative();
        long s = Math.abs(d.getSeconds());
        String v = s < 60
                ? s + "s"
                : s < 3600
                        ? (s / 60) + "m" + String.format("%02ds", s % 60)
                        : (s / 3600) + "h" + String.format("%02dm%02ds", s % 3600 / 60, s % 60);
        return future ? "in " + v : v + " ago";
    }

    static Instant parse(String wire) {
        if (wire == null || wire.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(wire);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(wire).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** An age the way kubectl shows one: {@code 42s}, {@code 5m30s}, {@code 12m}, {@code 3h20m}, {@code 14h}, {@code 3d}. */
    static String age(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 10) {
            return m + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
        }
        if (m < 60) {
            return m + "m";
        }
        long h = m / 60;
        if (h < 10) {
            return h + "h" + (m % 60 == 0 ? "" : (m % 60) + "m");
        }
        if (h < 48) {
            return h + "h";
        }
        long days = h / 24;
        return days < 10 && h % 24 != 0 ? days + "d" + (h % 24) + "h" : days + "d";
    }

    /** A length of time given in milliseconds: {@code 850ms}, {@code 42s}, {@code 5m30s}, {@code 3h20m}; {@code -} for null. */
    static String millis(Long ms) {
        if (ms == null) {
            return "-";
        }
        if (ms == 0) {
            return "0s";
        }
        if (ms < 1000 && ms > -1000) {
            return ms + "ms";
        }
        return age(Duration.ofMillis(ms));
    }

    static String seconds(Double s) {
        if (s == null) {
            return "-";
        }
        return s < 1 ? Math.round(s * 1000) + "ms" : age(Duration.ofMillis(Math.round(s * 1000)));
    }

    /**
     * A duration typed by a person: {@code 90} or {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d}, or ISO-8601
     * ({@code PT5M}).
     */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            Duration total = Duration.ZERO;
            java.util.regex.Matcher m =
                    java.util.regex.Pattern.compile("([0-9]+)(ms|s|m|h|d)?").matcher(t);
            int at = 0;
            while (at < t.length() && m.find(at) && m.start() == at) {
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                total = total.plus(
                        switch (unit) {
                            case "ms" -> Duration.ofMillis(n);
                            case "m" -> Duration.ofMinutes(n);
                            case "h" -> Duration.ofHours(n);
                            case "d" -> Duration.ofDays(n);
                            default -> Duration.ofSeconds(n);
                        });
                at = m.end();
            }
            if (at != t.length() || t.isEmpty()) {
                throw CliException.usage("not a duration: '" + text + "' (e.g. 90s, 5m, 2h, 1d)");
            }
            return total;
        } catch (DateTimeParseException | ArithmeticException e) {
            throw CliException.usage("not a duration: '" + text + "' (e.g. 90s, 5m, 2h, 1d)");
        }
    }
}
