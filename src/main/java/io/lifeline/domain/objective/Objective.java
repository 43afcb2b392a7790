package io.lifeline.domain.objective;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A goodput objective: the jobs of {@code scope} keep an ETTR (productive GPU time over GPU time held) of at least
 * {@code ettrTarget} over a rolling {@code window}, and optionally lose at most {@code lostGpuHoursLimit} GPU-hours or
 * {@code moneyLimit} (in the currency of {@code lifeline.spot.*}) to interruptions in that window. The error budget
 * is what the target leaves: {@code (1 - ettrTarget) x GPU-hours held}.
 *
 * @param name               unique, a label value: letters, digits, {@code -}, {@code _}, {@code .}
 * @param scope              the jobs it holds
 * @param ettrTarget         in (0, 1)
 * @param window             rolling window, from 1 hour to {@link #MAX_WINDOW}
 * @param lostGpuHoursLimit  GPU-hours lost to interruptions allowed per window (lost rework, hang, recovery), or null
 * @param moneyLimit         the same loss priced, or null
 */
public record Objective(
        String name,
        ObjectiveScope scope,
        double ettrTarget,
        Duration window,
        Double lostGpuHoursLimit,
        Double moneyLimit) {

    /** The longest window: what the hourly series keeps. */
    public static final Duration MAX_WINDOW = Duration.ofDays(30);

    /** The shortest window. */
    public static final Duration MIN_WINDOW = Duration.ofHours(1);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

    public Objective {
        List<String> problems = problems(name, scope, ettrTarget, window, lostGpuHoursLimit, moneyLimit);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** What is wrong with these values, one reason per field ({@code field: reason}); empty when nothing is. */
    public static List<String> problems(
            String name,
            ObjectiveScope scope,
            double ettrTarget,
            Duration window,
            Double lostGpuHoursLimit,
            Double moneyLimit) {
        List<String> out = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            out.add("name: 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (scope == null) {
            out.add("scope: required (job:<ns>/<name>, namespace:<ns>, owner:<owner> or pool:<pool>)");
        }
        if (!(ettrTarget > 0 && ettrTarget < 1)) {
            out.add("ettrTarget: a ratio strictly between 0 and 1 (0.95 for 95 %), got " + ettrTarget);
        }
        if (window == null || window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            out.add("window: from 1h to 30d (7d, 30d...), got " + window);
        }
        if (lostGpuHoursLimit != null && !(lostGpuHoursLimit > 0 && Double.isFinite(lostGpuHoursLimit))) {
            out.add("lostGpuHoursLimit: a positive number of GPU-hours, got " + lostGpuHoursLimit);
        }
        if (moneyLimit != null && !(moneyLimit > 0 && Double.isFinite(moneyLimit))) {
            out.add("moneyLimit: a positive amount, got " + moneyLimit);
        }
        return out;
    }

    /**
     * A window written {@code 7d}, {@code 30d}, {@code 12h}, {@code 90m} or in ISO-8601 ({@code P7D}).
     *
     * @throws IllegalArgumentException when it is none of these
     */
    public static Duration parseWindow(String s) {
        String v = s == null ? "" : s.trim();
        try {
            if (v.startsWith("P") || v.startsWith("p")) {
                return Duration.parse(v);
            }
            if (v.length() >= 2) {
                long n = Long.parseLong(v.substring(0, v.length() - 1));
                switch (v.charAt(v.length() - 1)) {
                    case 'd':
                        return Duration.ofDays(n);
                    case 'h':
                        return Duration.ofHours(n);
                    case 'm':
                        return Duration.ofMinutes(n);
                    default:
                        break;
                }
            }
        } catch (RuntimeException e) {
            // reported below with the accepted forms
        }
        throw new IllegalArgumentException(
                "'" + (v.length() > 20 ? v.substring(0, 20) : v) + "' is not a window (7d, 30d, 12h or P7D)");
    }

    /** The window as written back: whole days as {@code 7d}, else hours or minutes. */
    public static String formatWindow(Duration d) {
        if (d.toMillis() % 86_400_000L == 0) {
            return d.toDays() + "d";
        }
        return d.toMillis() % 3_600_000L == 0 ? d.toHours() + "h" : d.toMinutes() + "m";
    }

    /** Whether {@code o} counts the same jobs over the same window: its history still applies. */
    boolean sameSeries(Objective o) {
        return o != null && Objects.equals(scope, o.scope);
    }
}
