package io.lifeline.domain.gpu;

import io.lifeline.domain.support.WireEnum;

/**
 * The health verdict of one GPU, from best to worst. A node's health is the worst verdict of its GPUs.
 */
public enum GpuHealth implements WireEnum {
    /** No evidence of a fault. */
    HEALTHY,
    /** Still usable, but showing signs that often precede a failure (heat, link errors, soft ECC trouble). */
    DEGRADED,
    /** Must not run work until it is reset, rebooted or serviced. */
    FAILED;

    private static final GpuHealth[] VALUES = values();

    /** The worse of this verdict and {@code other}. */
    public GpuHealth worst(GpuHealth other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    static GpuHealth ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }
}
