package io.lifeline.domain.alert;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Life of an alert (one rule, one set of labels). INACTIVE → PENDING when its condition starts to hold; PENDING →
 * FIRING once it held for the rule's {@code for} duration (INACTIVE or RESOLVED → FIRING directly when that is zero);
 * PENDING → INACTIVE when the condition stops before that (nobody was told); FIRING → RESOLVED when it stops;
 * RESOLVED → PENDING or FIRING when it starts again. Transitions are checked in {@link #canFollow} only.
 */
public enum AlertState {
    /** The condition does not hold (or held too briefly to fire). */
    INACTIVE,
    /** The condition holds, for less than the rule's {@code for} duration. */
    PENDING,
    /** The condition held for the rule's {@code for} duration and still holds. */
    FIRING,
    /** It fired, and its condition stopped holding. */
    RESOLVED;

    /** The states this one may be entered from. */
    public Set<AlertState> predecessors() {
        switch (this) {
            case PENDING:
                return EnumSet.of(INACTIVE, RESOLVED);
            case FIRING:
                return EnumSet.of(INACTIVE, PENDING, RESOLVED);
            case RESOLVED:
                return EnumSet.of(FIRING);
            default:
                return EnumSet.of(PENDING);
        }
    }

    public boolean canFollow(AlertState from) {
        return predecessors().contains(from);
    }

    /** Whether it is pending or firing. */
    public boolean active() {
        return this == PENDING || this == FIRING;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name (case-insensitive). */
    public static AlertState fromWire(String s) {
        for (AlertState v : values()) {
            if (v.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
                return v;
            }
        }
        throw new IllegalArgumentException(
                "state: must be one of inactive, pending, firing, resolved, got '" + s + "'");
    }
}
