package io.lifeline.domain.gpu;

import java.time.Instant;

/**
 * What Kubernetes says of a GPU as a device, read-only.
 *
 * @param kubelet        the kubelet's {@code allocatedResourcesStatus} health ({@code Healthy}, {@code Unhealthy},
 *                       {@code Unknown}), null when no pod status named the device
 * @param kubeletDevice  the device id the kubelet named
 * @param kubeletDetail  the kubelet's message, may be null
 * @param kubeletSince   when that health began
 * @param taint          the strongest effect of the DRA device taints on it ({@code NoExecute}, {@code NoSchedule},
 *                       {@code None}), null while it has none
 * @param taintDevice    the device as the DRA driver names it ({@code <driver>/<pool>/<device>})
 * @param taintDetail    the taints ({@code key=value:effect}), null while it has none
 * @param taintedSince   when it was last found tainted after having no taint, null if never
 * @param untaintedAt    when its taints were last found removed, null if never
 */
public record DeviceView(
        String kubelet,
        String kubeletDevice,
        String kubeletDetail,
        Instant kubeletSince,
        String taint,
        String taintDevice,
        String taintDetail,
        Instant taintedSince,
        Instant untaintedAt) {}
