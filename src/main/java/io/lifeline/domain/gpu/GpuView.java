package io.lifeline.domain.gpu;

import java.time.Instant;

/**
 * A read-only snapshot of one GPU: its latest sample values (null means no data, never zero) and its verdict.
 *
 * @param node                node hosting it
 * @param uuid                GPU UUID
 * @param index               index on the node
 * @param model               model name, may be null
 * @param sampledAt           time of the latest sample, null before the first one
 * @param utilizationPercent  0..100
 * @param memoryUsedMiB       frame buffer used
 * @param memoryFreeMiB       frame buffer free
 * @param temperatureCelsius  GPU temperature
 * @param powerWatts          power draw
 * @param eccSbeVolatile      single-bit ECC errors, last known
 * @param eccDbeVolatile      double-bit ECC errors, last known
 * @param rowRemapFailures    row remapping failures, last known
 * @param nvlinkErrors        NVLink errors summed, last known
 * @param lastXid             the exporter's last-XID value (a value, not a count; 0 = none seen)
 * @param pod                 pod using it, may be null
 * @param namespace           that pod's namespace, may be null
 * @param health              verdict; null when there is none because the GPU is gone (its node is terminated: its
 *                            live values are null too, and {@code reason} says so)
 * @param reason              why (null when healthy)
 * @param source              where the evidence behind the verdict comes from: {@code xid}, {@code dcgm},
 *                            {@code kubelet} or {@code dra-taint} (null when healthy)
 * @param device              what Kubernetes says of the GPU as a device, null when it said nothing
 */
public record GpuView(
        String node,
        String uuid,
        int index,
        String model,
        Instant sampledAt,
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
        String namespace,
        GpuHealth health,
        String reason,
        String source,
        DeviceView device) {}
