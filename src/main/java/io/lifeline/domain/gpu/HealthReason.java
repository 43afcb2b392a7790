package io.lifeline.domain.gpu;

/**
 * Why a GPU has its verdict: the first matching rule of {@link GpuHealthRules}, in the order listed here. Each names
 * its source: {@code xid} (driver XIDs, from any connector), {@code dcgm} (telemetry samples), {@code kubelet} (a
 * pod's {@code allocatedResourcesStatus}) or {@code dra-taint} (DRA device taints).
 */
enum HealthReason {
    /** An XID whose policy verdict is FAILED was reported since the node (re)registered. */
    XID_FAILED(GpuHealth.FAILED, "xid"),
    /** Volatile double-bit ECC errors are above zero. */
    ECC_DBE(GpuHealth.FAILED, "dcgm"),
    /** Row remapping failed: the memory can no longer hide bad rows. */
    ROW_REMAP_FAILURE(GpuHealth.FAILED, "dcgm"),
    /** At or above the failed temperature threshold. */
    TEMPERATURE_CRITICAL(GpuHealth.FAILED, "dcgm"),
    /** A DRA device taint with effect NoSchedule or NoExecute is on the device. */
    DEVICE_TAINTED(GpuHealth.FAILED, "dra-taint"),
    /** The kubelet reports the device Unhealthy in a pod's allocatedResourcesStatus. */
    DEVICE_UNHEALTHY(GpuHealth.FAILED, "kubelet"),
    /** An XID whose policy verdict is DEGRADED was reported since the node (re)registered. */
    XID_DEGRADED(GpuHealth.DEGRADED, "xid"),
    /** At or above the degraded temperature threshold. */
    TEMPERATURE_HIGH(GpuHealth.DEGRADED, "dcgm"),
    /** NVLink errors grew faster than the threshold between the last two samples. */
    NVLINK_ERRORS(GpuHealth.DEGRADED, "dcgm"),
    /** A DRA device taint that keeps no work off (effect None, or one unknown to this release) is on the device. */
    DEVICE_TAINT_INFO(GpuHealth.DEGRADED, "dra-taint"),
    /** No evidence of a fault. */
    NONE(GpuHealth.HEALTHY, null);

    private final GpuHealth health;
    private final String source;

    HealthReason(GpuHealth health, String source) {
        this.health = health;
        this.source = source;
    }

    /** Where the evidence comes from; null when there is none. */
    String source() {
        return source;
    }

    /** The verdict this reason leads to. */
    GpuHealth health() {
        return health;
    }
}
