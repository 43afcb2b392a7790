package io.lifeline.domain.policy.colocation;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The configured windows and demand triggers, checked: {@link #parse} names every setting at fault and why (an
 * unknown time zone, a malformed time, an unknown day), all at once, so one start-up shows every mistake.
 */
public record ColocationRules(List<LendingWindow> windows, List<DemandTrigger> triggers) {

    public static final ColocationRules NONE = new ColocationRules(List.of(), List.of());

    private static final Pattern POOL = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern TIME = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d|24:00");
    private static final Pattern WORKLOAD =
            Pattern.compile("[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?/" + "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Map<String, DayOfWeek> DAYS = Map.of(
            "mon",
            DayOfWeek.MONDAY,
            "tue",
            DayOfWeek.TUESDAY,
            "wed",
            DayOfWeek.WEDNESDAY,
            "thu",
            DayOfWeek.THURSDAY,
            "fri",
            DayOfWeek.FRIDAY,
            "sat",
            DayOfWeek.SATURDAY,
            "sun",
            DayOfWeek.SUNDAY);

    public ColocationRules {
        windows = List.copyOf(windows);
        triggers = List.copyOf(triggers);
    }

    /**
     * A window as configured, every field a string as written (null when absent). Either the weekly form
     * ({@code days}, {@code from}, {@code to}, {@code zone}) or the cycle form ({@code every}, {@code openFor},
     * {@code starting}).
     */
    public record RawWindow(
            String pool,
            String days,
            String from,
            String to,
            String zone,
            String every,
            String openFor,
            String starting) {}

    /** A demand trigger as configured: exactly one of {@code pendingPods} ({@code namespace/deployment}) and
     * {@code prometheusQuery}. */
    public record RawDemand(String pool, String pendingPods, String prometheusQuery, String threshold, String hold) {}

    /** Whether any pool has a window or a trigger. */
    public boolean isEmpty() {
        return windows.isEmpty() && triggers.isEmpty();
    }

    /** A copy with one more window (one of the same name is replaced). */
    public ColocationRules with(LendingWindow w) {
        List<LendingWindow> out = new ArrayList<>(
                windows.stream().filter(x -> !x.name().equals(w.name())).toList());
        out.add(w);
        return new ColocationRules(out, triggers);
    }

    /**
     * Checks and builds the rules; {@code prefix} (for example {@code lifeline.colocation}) starts the name of each
     * setting an error names.
     *
     * @throws IllegalArgumentException listing every problem, one per line
     */
    public static ColocationRules parse(Map<String, RawWindow> windows, Map<String, RawDemand> demand, String prefix) {
        List<String> problems = new ArrayList<>();
        List<LendingWindow> ws = new ArrayList<>();
        new TreeMap<>(windows).forEach((name, raw) -> {
            LendingWindow w = window(name, raw, prefix + ".windows." + name, problems);
            if (w != null) {
                ws.add(w);
            }
        });
        List<DemandTrigger> ts = new ArrayList<>();
        new TreeMap<>(demand).forEach((name, raw) -> {
            DemandTrigger t = trigger(name, raw, prefix + ".demand." + name, problems);
            if (t != null) {
                ts.add(t);
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("co-location settings are invalid:\n  " + String.join("\n  ", problems));
        }
        return new ColocationRules(ws, ts);
    }

    private static LendingWindow window(String name, RawWindow r, String key, List<String> problems) {
        int before = problems.size();
        String pool = pool(r.pool(), key, problems);
        boolean cycle = r.every() != null || r.openFor() != null || r.starting() != null;
        boolean weekly = r.days() != null || r.from() != null || r.to() != null || r.zone() != null;
        if (cycle && weekly) {
            problems.add(key + ": either days/from/to/zone (a weekly window) or every/open-for/starting (a cycle),"
                    + " not both");
            return null;
        }
        WindowSchedule schedule = null;
        if (cycle) {
            Duration every = duration(r.every(), key + ".every", problems);
            Duration openFor = duration(r.openFor(), key + ".open-for", problems);
            Instant anchor = instant(r.starting(), key + ".starting", problems);
            if (problems.size() == before) {
                try {
                    schedule = new WindowSchedule.Cycle(anchor, every, openFor);
                } catch (IllegalArgumentException e) {
                    problems.add(key + ": " + e.getMessage());
                }
            }
        } else {
            Set<DayOfWeek> days =
                    r.days() == null ? EnumSet.allOf(DayOfWeek.class) : days(r.days(), key + ".days", problems);
            LocalTime from = time(r.from(), key + ".from", problems);
            LocalTime to = time(r.to(), key + ".to", problems);
            ZoneId zone = zone(r.zone(), key + ".zone", problems);
            if (problems.size() == before) {
                try {
                    schedule = new WindowSchedule.Weekly(days, from, to, zone);
                } catch (IllegalArgumentException e) {
                    problems.add(key + ": " + e.getMessage());
                }
            }
        }
        return problems.size() == before ? new LendingWindow(name, pool, schedule) : null;
    }

    private static DemandTrigger trigger(String name, RawDemand r, String key, List<String> problems) {
        int before = problems.size();
        String pool = pool(r.pool(), key, problems);
        DemandTrigger.Source source = null;
        if ((r.pendingPods() == null) == (r.prometheusQuery() == null)) {
            problems.add(key + ": exactly one of pending-pods (namespace/deployment) and prometheus-query");
        } else if (r.pendingPods() != null) {
            if (!WORKLOAD.matcher(r.pendingPods().trim()).matches()) {
                problems.add(key + ".pending-pods: '" + r.pendingPods() + "' is not namespace/deployment");
            } else {
                String[] p = r.pendingPods().trim().split("/");
                source = new DemandTrigger.PendingPods(p[0], p[1]);
            }
        } else if (r.prometheusQuery().isBlank()) {
            problems.add(key + ".prometheus-query: empty");
        } else {
            source = new DemandTrigger.PrometheusQuery(r.prometheusQuery().trim());
        }
        double threshold = 0;
        if (r.threshold() == null) {
            problems.add(key + ".threshold: required (above it the pool lends)");
        } else {
            try {
                threshold = Double.parseDouble(r.threshold().trim());
                if (!Double.isFinite(threshold)) {
                    problems.add(key + ".threshold: not a finite number: '" + r.threshold() + "'");
                }
            } catch (NumberFormatException e) {
                problems.add(key + ".threshold: not a number: '" + r.threshold() + "'");
            }
        }
        Duration hold = r.hold() == null ? Duration.ofMinutes(10) : duration(r.hold(), key + ".hold", problems);
        if (hold != null && hold.isNegative()) {
            problems.add(key + ".hold: negative");
        }
        return problems.size() == before ? new DemandTrigger(name, pool, source, threshold, hold) : null;
    }

    private static String pool(String pool, String key, List<String> problems) {
        if (pool == null || pool.isBlank()) {
            problems.add(key + ".pool: required (the pool whose training jobs yield)");
            return null;
        }
        if (!POOL.matcher(pool.trim()).matches()) {
            problems.add(key + ".pool: not a pool name: '" + pool + "'");
            return null;
        }
        return pool.trim();
    }

    /** Days as {@code mon-fri}, {@code sat,sun}, {@code weekdays}, {@code weekends} or {@code daily}. */
    static Set<DayOfWeek> days(String s, String key, List<String> problems) {
        Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
        for (String part : s.toLowerCase(Locale.ROOT).split(",")) {
            String p = part.trim();
            switch (p) {
                case "weekdays" -> out.addAll(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY));
                case "weekends", "weekend" -> out.addAll(EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY));
                case "daily", "every-day" -> out.addAll(EnumSet.allOf(DayOfWeek.class));
                default -> {
                    String[] range = p.split("-", -1);
                    DayOfWeek a = day(range[0].trim(), key, problems);
                    DayOfWeek b = range.length == 2 ? day(range[1].trim(), key, problems) : a;
                    if (range.length > 2) {
                        problems.add(key + ": '" + p + "' is not a day or a range of days");
                    } else if (a != null && b != null) {
                        for (DayOfWeek d = a; ; d = d.plus(1)) {
                            out.add(d);
                            if (d == b) {
                                break;
                            }
                        }
                    }
                }
            }
        }
        if (out.isEmpty() && problems.stream().noneMatch(x -> x.startsWith(key))) {
            problems.add(key + ": no day given");
        }
        return out;
    }

    private static DayOfWeek day(String s, String key, List<String> problems) {
        String k = s.length() >= 3 ? s.substring(0, 3) : s;
        DayOfWeek d = DAYS.get(k);
        if (d == null || !d.name().toLowerCase(Locale.ROOT).startsWith(s)) {
            problems.add(key + ": unknown day '" + s + "' (use mon, tue, wed, thu, fri, sat, sun, a range such as"
                    + " mon-fri, or weekdays, weekends, daily)");
            return null;
        }
        return d;
    }

    private static LocalTime time(String s, String key, List<String> problems) {
        if (s == null) {
            problems.add(key + ": required, a local time HH:MM");
            return null;
        }
        String t = s.trim();
        if (!TIME.matcher(t).matches()) {
            problems.add(key + ": '" + s + "' is not a time HH:MM (00:00 to 24:00)");
            return null;
        }
        return t.equals("24:00") ? LocalTime.MIDNIGHT : LocalTime.parse(t);
    }

    private static ZoneId zone(String s, String key, List<String> problems) {
        if (s == null) {
            problems.add(key + ": required, a time zone such as Europe/Paris or UTC");
            return null;
        }
        try {
            return ZoneId.of(s.trim());
        } catch (DateTimeException e) {
            problems.add(key + ": unknown time zone '" + s + "' (use a region such as Europe/Paris, or UTC)");
            return null;
        }
    }

    private static Duration duration(String s, String key, List<String> problems) {
        if (s == null) {
            problems.add(key + ": required, a duration such as 10m or PT10M");
            return null;
        }
        String t = s.trim();
        try {
            if (t.matches("\\d+[smhd]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                return switch (t.charAt(t.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            return Duration.parse(t);
        } catch (RuntimeException e) {
            problems.add(key + ": '" + s + "' is not a duration such as 10m or PT10M");
            return null;
        }
    }

    private static Instant instant(String s, String key, List<String> problems) {
        if (s == null) {
            problems.add(key + ": required, an RFC 3339 time the first cycle opens at");
            return null;
        }
        try {
            return OffsetDateTime.parse(s.trim()).toInstant();
        } catch (DateTimeParseException e) {
            problems.add(key + ": '" + s + "' is not an RFC 3339 time such as 2026-01-05T08:00:00Z");
            return null;
        }
    }
}
