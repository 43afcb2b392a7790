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
}
