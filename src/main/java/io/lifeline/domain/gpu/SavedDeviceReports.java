package io.lifeline.domain.gpu;

/**
 * One GPU's {@link DeviceReports} as plain values, part of a {@link SavedGpu}. Times are epoch milliseconds,
 * {@link Long#MIN_VALUE} when unset.
 *
 * @param kubeletState    the kubelet's health of the device, null when none was reported
 * @param kubeletDevice   the device id it named
 * @param kubeletDetail   its message
 * @param kubeletSince    when that state began
 * @param kubeletWritten  the newest report that confirmed it
 * @param taintEffect     the strongest effect of the device's taints, null when it has none
 * @param taintDevice     the device as the DRA driver names it
 * @param taintDetail     the taints
 * @param taintedSince    when the device was last found tainted after having no taint
 * @param untaintedAt     when its taints were last found removed
 * @param taintWritten    the newest taint report that confirmed the register
 */
public record SavedDeviceReports(
        String kubeletState,
        String kubeletDevice,
        String kubeletDetail,
        long kubeletSince,
        long kubeletWritten,
        String taintEffect,
        String taintDevice,
        String taintDetail,
        long taintedSince,
        long untaintedAt,
        long taintWritten) {}
