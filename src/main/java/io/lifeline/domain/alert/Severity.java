package io.lifeline.domain.alert;

import java.util.Locale;

/** How urgent an alert is; its wire name is the {@code severity} label. */
public enum Severity {
    /** Worth knowing, nobody needs to act now. */
    INFO,
    /** Someone should look during working hours. */
    WARNING,
    /** Page someone: work is being lost or is at risk now. */
    CRITICAL;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name (case-insensitive). */
    public static Severity fromWire(String s) {
        for (Severity v : values()) {
            if (v.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
                return v;
            }
        }
        throw new IllegalArgumentException("severity: must be one of info, warning, critical, got '" + s + "'");
    }
}
