package io.lifeline.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Formats numbers, durations and times the way operators read them ("3 h 12 min", "1,234.5 GPU-h", "87.2 %"). */
public final class Format {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MMM d, HH:mm", Locale.ENGLISH);
    private static final String NONE = "—";

    private Format() {}

    /** A duration in the two largest units that matter: "45 s", "12 min 5 s", "3 h 12 min", "2 d 4 h". */
    public static String duration(Long millis) {
        if (millis == null) {
            return NONE;
        }
        long ms = Math.abs(millis);
        String sign = millis < 0 ? "-" : "";
        if (ms < 1000) {
            return sign + ms + " ms";
        }
        long s = ms / 1000;
        if (s < 60) {
            return sign + s + " s";
        }
        long m = s / 60;
        if (m < 60) {
            long rest = s % 60;
            return sign + m + " min" + (rest == 0 ? "" : " " + rest + " s");
        }
        long h = m / 60;
        if (h < 48) {
            long rest = m % 60;
            return sign + h + " h" + (rest == 0 ? "" : " " + rest + " min");
        }
        long d = h / 24;
        long rest = h % 24;
        return sign + d + " d" + (rest == 0 ? "" : " " + rest + " h");
    }

    /** Seconds as a duration (see {@link #duration(Long)}). */
    public static String seconds(Double seconds) {
        return seconds == null ? NONE : duration(Math.round(seconds * 1000));
    }

    /** GPU-hours with a precision that fits their size. */
    public static String gpuHours(double h) {
        if (h == 0) {
            return "0 GPU-h";
        }
        if (Math.abs(h) < 0.1) {
            return String.format(Locale.ENGLISH, "%.0f GPU-min", h * 60);
        }
        if (Math.abs(h) < 100) {
            return String.format(Locale.ENGLISH, "%.1f GPU-h", h);
        }
        return String.format(Locale.ENGLISH, "%,.0f GPU-h", h);
    }

    /** A ratio 0..1 as a percentage with one decimal, or a dash. */
    public static String percent(Double ratio) {
        return ratio == null ? NONE : String.format(Locale.ENGLISH, "%.1f %%", ratio * 100);
    }

    /** A plain number with one decimal, or a dash. */
    public static String number(Double v, String unit) {
        return v == null ? NONE : String.format(Locale.ENGLISH, "%.0f%s", v, unit);
    }

    /** A byte count in binary units. */
    public static String bytes(Long b) {
        if (b == null) {
            return NONE;
        }
        double v = b;
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ENGLISH, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }

    /** A time in the viewer's zone, to the second. */
    public static String time(Instant t, ZoneId zone) {
        return t == null ? NONE : TIME.format(t.atZone(zone));
    }

    /** A short time in the viewer's zone ("Nov 29, 13:05"). */
    public static String shortTime(Instant t, ZoneId zone) {
        return t == null ? NONE : SHORT.format(t.atZone(zone));
    }

    /** How long ago, relative to {@code now}: "5 min ago". */
    public static String ago(Instant t, Instant now) {
        return t == null ? NONE : duration(Duration.between(t, now).toMillis()) + " ago";
    }

    /** An enum constant as words: SPOT_RECLAIM becomes "spot reclaim". */
    public static String words(Enum<?> e) {
        return e == null ? NONE : e.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** A value or a dash. */
    public static String text(Object o) {
        return o == null ? NONE : String.valueOf(o);
    }
}
