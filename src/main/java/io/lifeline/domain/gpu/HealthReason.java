package io.lifeline.domain.gpu;

/** Why a GPU has its verdict: the first matching rule of {@link GpuHealthRules}, in the order listed here. */
enum HealthReason {
    /** An XID whose policy verdict is FAILED was reported since the node (re)registered. */
    XID_FAILED(GpuHealth.FAILED),
    /** Volatile double-bit ECC errors are above zero. */
    ECC_DBE(GpuHealth.FAILED),
    /** Row remapping failed: the memory can no longer hide bad rows. */
    ROW_REMAP_FAILURE(GpuHealth.FAILED),
    /** At or above the failed temperature threshold. */
    TEMPERATURE_CRITICAL(GpuHealth.FAILED),
    /** An XID whose policy verdict is DEGRADED was reported since the node (re)registered. */
    XID_DEGRADED(GpuHealth.DEGRADED),
    /** At or above the degraded temperature threshold. */
    TEMPERATURE_HIGH(GpuHealth.DEGRADED),
    /** NVLink errors grew faster than the threshold between the last two samples. */
    NVLINK_ERRORS(GpuHealth.DEGRADED),
    /** No evidence of a fault. */
    NONE(GpuHealth.HEALTHY);

    private final GpuHealth health;

    HealthReason(GpuHealth health) {
        this.health = health;
    }

    /** The verdict this reason leads to. */
    GpuHealth health() {
        return health;
    }
}
