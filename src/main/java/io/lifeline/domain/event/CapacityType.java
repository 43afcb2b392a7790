package io.lifeline.domain.event;

import io.lifeline.domain.support.WireEnum;
import java.util.Locale;

/** How a node is bought: spot capacity can be reclaimed by the provider at short notice. */
public enum CapacityType implements WireEnum {
    SPOT,
    ON_DEMAND,
    RESERVED;

    /** Wire form used in events: {@code spot}, {@code on-demand}, {@code reserved}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses the wire form (also accepts {@code on_demand} and upper case); {@code null} when unknown. */
    public static CapacityType fromWireName(String s) {
        if (s == null) {
            return null;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "spot", "preemptible" -> SPOT;
            case "on-demand", "ondemand", "regular", "standard" -> ON_DEMAND;
            case "reserved" -> RESERVED;
            default -> null;
        };
    }
}
