package io.lifeline.domain.fleet.reliability;

import io.lifeline.domain.support.WireEnum;
import java.util.Arrays;
import java.util.Optional;

/** What the reliability table groups nodes by. */
public enum GroupBy implements WireEnum {
    POOL("pool"),
    ZONE("zone"),
    INSTANCE_TYPE("instanceType"),
    CAPACITY_TYPE("capacityType");

    /** The group of nodes whose fact is unknown. */
    public static final String UNKNOWN = "(unknown)";

    private final String wire;

    GroupBy(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Optional<GroupBy> fromWire(String s) {
        return Arrays.stream(values()).filter(g -> g.wire.equals(s)).findFirst();
    }

    /** The group {@code key} falls in. */
    public String of(GroupKey key) {
        String v = switch (this) {
            case POOL -> key.pool();
            case ZONE -> key.zone();
            case INSTANCE_TYPE -> key.instanceType();
            case CAPACITY_TYPE -> key.capacityType();
        };
        return v == null ? UNKNOWN : v;
    }
}
