package io.lifeline.domain.fleet.reliability;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.support.WireEnum;
import java.util.Arrays;
import java.util.Optional;

/**
 * Why a node was interrupted. A notice names its kind; a node that went away or stopped being Ready without a
 * pending notice was interrupted unannounced; a GPU turning FAILED is a GPU failure.
 */
public enum InterruptionCause implements WireEnum {
    SPOT_RECLAIM("spot-reclaim"),
    REBALANCE("rebalance"),
    MAINTENANCE("maintenance"),
    PREEMPT("preempt"),
    /** Terminated without a pending notice. */
    TERMINATION("termination"),
    /** Not Ready without a pending notice. */
    NOT_READY("not-ready"),
    /** A GPU of the node turned FAILED (an XID with a failing impact, double-bit ECC, row-remap failure, heat). */
    GPU_FAILURE("gpu-failure");

    private final String wire;

    InterruptionCause(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Optional<InterruptionCause> fromWire(String s) {
        return Arrays.stream(values()).filter(c -> c.wire.equals(s)).findFirst();
    }

    /** The cause of a notice of this kind. */
    public static InterruptionCause of(NoticeKind kind) {
        if (kind == null) {
            return SPOT_RECLAIM;
        }
        return switch (kind) {
            case SPOT_RECLAIM -> SPOT_RECLAIM;
            case REBALANCE -> REBALANCE;
            case MAINTENANCE -> MAINTENANCE;
            case PREEMPT -> PREEMPT;
        };
    }
}
