package io.lifeline.domain.event;

/**
 * Payloads of {@code gpu.*} events; the event subject is the node that hosts the GPU.
 * Every measurement is nullable: a missing series means no data, never zero.
 */
public sealed interface GpuData extends EventData {

    /** The GPU's UUID, its stable identity. */
    String uuid();

    /** The GPU's index on its node. */
    int index();

    /**
     * One telemetry sample of one GPU.
     *
     * @param uuid                GPU UUID
     * @param index               index on the node
     * @param model               model name, may be null
     * @param utilizationPercent  0..100
     * @param memoryUsedMiB       frame buffer used
     * @param memoryFreeMiB       frame buffer free
     * @param temperatureCelsius  GPU temperature
     * @param powerWatts          power draw
     * @param eccSbeVolatile      single-bit ECC errors (volatile count)
     * @param eccDbeVolatile      double-bit ECC errors (volatile count)
     * @param rowRemapFailures    uncorrectable row remapping failures
     * @param nvlinkErrors        NVLink CRC / replay / recovery errors, summed
     * @param lastXid             last XID seen by the exporter (a value, not a count)
     * @param pod                 pod using the GPU, may be null
     * @param namespace           its namespace, may be null
     */
    record Sample(
            String uuid,
            int index,
            String model,
            Double utilizationPercent,
            Double memoryUsedMiB,
            Double memoryFreeMiB,
            Double temperatureCelsius,
            Double powerWatts,
            Long eccSbeVolatile,
            Long eccDbeVolatile,
            Long rowRemapFailures,
            Long nvlinkErrors,
            Integer lastXid,
            String pod,
            String namespace)
            implements GpuData {}

    /**
     * An XID error reported by the driver.
     *
     * @param uuid     GPU UUID
     * @param index    index on the node
     * @param xid      XID code
     * @param message  driver or exporter message, may be null
     */
    record Xid(String uuid, int index, int xid, String message) implements GpuData {}

    /**
     * What Kubernetes says of a GPU as a device: the kubelet's {@code allocatedResourcesStatus} of a pod using it
     * (KEP-4680), or the DRA device taints on it (a ResourceSlice's {@code devices[].taints} or a DeviceTaintRule,
     * KEP-5055). Each source is its own register of the GPU: a newer report of the same source replaces the older.
     *
     * @param uuid     GPU UUID, null when the source names the GPU by index only
     * @param index    index on the node, -1 when the source does not say it
     * @param source   {@link #KUBELET} or {@link #DRA_TAINT}
     * @param device   the device as the source names it (a device plugin's device id, or
     *                 {@code <driver>/<pool>/<device>})
     * @param state    for {@link #KUBELET}: {@code Healthy}, {@code Unhealthy} or {@code Unknown}; for
     *                 {@link #DRA_TAINT}: the strongest effect of the taints on the device ({@code NoExecute},
     *                 {@code NoSchedule}, {@code None}), or {@code Healthy} once no taint is left
     * @param detail   the kubelet's message or the taints ({@code key=value:effect}, comma-separated), may be null
     */
    record DeviceHealth(String uuid, int index, String source, String device, String state, String detail)
            implements GpuData {

        /** The kubelet's {@code allocatedResourcesStatus}. */
        public static final String KUBELET = "kubelet";
        /** DRA device taints. */
        public static final String DRA_TAINT = "dra-taint";
    }
}
