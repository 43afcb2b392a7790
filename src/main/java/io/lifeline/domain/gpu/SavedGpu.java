package io.lifeline.domain.gpu;

import java.util.List;
import java.util.Objects;

/**
 * One GPU's state as plain values, so that a checkpoint of the model can hold it ({@link GpuState#save()}) and a fresh
 * model take it back ({@link GpuState#restore}). The registers are those of the live state: gauges are NaN and counters
 * {@link Long#MIN_VALUE} when never reported, times are epoch milliseconds ({@link Long#MIN_VALUE} when unset).
 *
 * @param uuid              GPU UUID
 * @param index             index on its node
 * @param firstSeenMillis   time of the first event about it
 * @param model             GPU model name, may be null
 * @param pod               pod on it at the latest sample, may be null
 * @param namespace         that pod's namespace, may be null
 * @param sampledMillis     time of the latest sample applied
 * @param utilization       utilisation in percent
 * @param memoryUsed        frame buffer used, MiB
 * @param memoryFree        frame buffer free, MiB
 * @param temperature       °C
 * @param power             W
 * @param eccSbe            volatile single-bit ECC errors
 * @param eccDbe            volatile double-bit ECC errors
 * @param rowRemapFailures  row remapping failures
 * @param nvlinkErrors      NVLink error counter at the latest sample
 * @param nvlinkMillis      time of that counter value
 * @param nvlinkPerMinute   NVLink error rate between the last two values
 * @param exporterXid       the exporter's last-XID value ({@code -1} when none)
 * @param xidHealth         the verdict the XIDs of this life impose
 * @param xidCause          the XID behind {@code xidHealth} ({@code -1} when none)
 * @param verdict           the current verdict
 * @param xidTimes          the retained XIDs' times in the order the history holds them (not sorted: restoring keeps
 *                          which entry a new XID replaces); empty when none was retained
 * @param xidCodes          their codes, in the same order
 * @param devices           what Kubernetes reported of the GPU as a device, null when nothing
 */
public record SavedGpu(
        String uuid,
        int index,
        long firstSeenMillis,
        String model,
        String pod,
        String namespace,
        long sampledMillis,
        float utilization,
        float memoryUsed,
        float memoryFree,
        float temperature,
        float power,
        long eccSbe,
        long eccDbe,
        long rowRemapFailures,
        long nvlinkErrors,
        long nvlinkMillis,
        float nvlinkPerMinute,
        int exporterXid,
        GpuHealth xidHealth,
        int xidCause,
        GpuHealth verdict,
        List<Long> xidTimes,
        List<Integer> xidCodes,
        SavedDeviceReports devices) {

    public SavedGpu {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(xidHealth, "xidHealth");
        Objects.requireNonNull(verdict, "verdict");
        xidTimes = List.copyOf(xidTimes);
        xidCodes = List.copyOf(xidCodes);
        if (xidTimes.size() != xidCodes.size() || xidTimes.size() > XidHistory.CAPACITY) {
            throw new IllegalArgumentException("XID times and codes must pair up, at most " + XidHistory.CAPACITY);
        }
    }
}
