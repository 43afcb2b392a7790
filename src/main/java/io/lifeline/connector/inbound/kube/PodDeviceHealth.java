package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceHealth;
import io.fabric8.kubernetes.api.model.ResourceStatus;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The kubelet's health of the devices a pod was given ({@code status.containerStatuses[].allocatedResourcesStatus},
 * KEP-4680: per resource, {@code resources[]} of {@code resourceID} and {@code health} Healthy, Unhealthy or Unknown,
 * with an optional {@code message}). A device's health that differs from the pod's previous version becomes a
 * {@code gpu.device_health} from source {@code kubelet} on the pod's node, naming the GPU as the id allows:
 * <ul>
 *   <li>a device plugin's resource whose name has {@code gpu} in it: the id is the plugin's device id, a GPU UUID
 *       ({@code GPU-…}) with the NVIDIA plugin's default {@code uuid} strategy, or the GPU's index with its
 *       {@code index} strategy; a MIG device ({@code MIG-…}) or any other id cannot be put on a GPU;</li>
 *   <li>a DRA claim ({@code claim:<claim>/<request>}): the id is {@code <driver>/<pool>/<device>}, looked up in the
 *       published ResourceSlices ({@link DraDevices}) for the device's {@code uuid}, or the device's first CDI id
 *       when its driver gave one (newer kubelets), used when it ends in a GPU UUID ({@code …=GPU-…}); a device not
 *       (yet) published cannot.</li>
 * </ul>
 * A device that cannot be put on a GPU is counted as {@code unmapped_device}.
 */
final class PodDeviceHealth {

    private static final Pattern INDEX = Pattern.compile("\\d{1,3}");

    private PodDeviceHealth() {}

    /** What changed in the devices' health between {@code old} (null on first sight) and {@code pod}. */
    static Translation changes(Pod old, Pod pod, String source, DraDevices dra, Instant now) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        Map<String, String[]> before = old == null ? Map.of() : health(old);
        Map<String, String[]> after = health(pod);
        if (node == null || after.isEmpty()) {
            return Translation.empty();
        }
        List<Event> out = new ArrayList<>();
        List<Translation.Rejection> rejections = new ArrayList<>();
        for (Map.Entry<String, String[]> e : after.entrySet()) {
            String[] was = before.get(e.getKey());
            String[] is = e.getValue();
            if (was != null && was[1].equals(is[1]) && java.util.Objects.equals(was[2], is[2])) {
                continue;
            }
            String resource = is[0];
            String id = e.getKey();
            String uuid = null;
            int index = -1;
            if (resource.startsWith("claim:")) {
                DraDevices.Device d = dra == null ? null : dra.lookup(id);
                if (d != null) {
                    uuid = d.uuid();
                    index = d.index();
                } else if (id.contains("=GPU-")) {
                    // A CDI device id (the kubelet reports the first one when the driver gives any).
                    uuid = id.substring(id.indexOf("=GPU-") + 1);
                }
            } else if (id.startsWith("GPU-")) {
                uuid = id;
            } else if (INDEX.matcher(id).matches()) {
                index = Integer.parseInt(id);
            }
            if (uuid == null && index < 0) {
                rejections.add(new Translation.Rejection(
                        "unmapped_device",
                        "device " + id + " of " + resource + " (pod "
                                + pod.getMetadata().getName() + ") names no GPU Lifeline can put on node " + node));
                continue;
            }
            out.add(new Event(
                    "pod/" + KubeContext.uid(pod) + "/device/" + id + "/" + is[1] + "/"
                            + KubeContext.resourceVersion(pod),
                    source,
                    EventType.GPU_DEVICE_HEALTH,
                    node,
                    now,
                    new GpuData.DeviceHealth(
                            uuid,
                            index,
                            GpuData.DeviceHealth.KUBELET,
                            id,
                            is[1],
                            KubeContext.text((is[2] == null ? "" : is[2] + "; ") + "pod "
                                    + KubeContext.job(
                                            pod.getMetadata().getNamespace(),
                                            pod.getMetadata().getName())
                                    + ", " + resource))));
        }
        return new Translation(out, rejections);
    }

    /** Resource id → {resource name, health, message} of the GPU resources of every container of the pod. */
    static Map<String, String[]> health(Pod pod) {
        Map<String, String[]> out = new LinkedHashMap<>();
        if (pod.getStatus() == null) {
            return out;
        }
        List<ContainerStatus> all = new ArrayList<>();
        if (pod.getStatus().getInitContainerStatuses() != null) {
            all.addAll(pod.getStatus().getInitContainerStatuses());
        }
        if (pod.getStatus().getContainerStatuses() != null) {
            all.addAll(pod.getStatus().getContainerStatuses());
        }
        for (ContainerStatus cs : all) {
            if (cs == null || cs.getAllocatedResourcesStatus() == null) {
                continue;
            }
            for (ResourceStatus rs : cs.getAllocatedResourcesStatus()) {
                String name = rs == null ? null : rs.getName();
                if (name == null || rs.getResources() == null || !(name.startsWith("claim:") || name.contains("gpu"))) {
                    continue;
                }
                for (ResourceHealth h : rs.getResources()) {
                    if (h == null || h.getResourceID() == null) {
                        continue;
                    }
                    Object message = h.getAdditionalProperties().get("message");
                    out.put(h.getResourceID(), new String[] {
                        name,
                        h.getHealth() == null ? "Unknown" : h.getHealth(),
                        message == null ? null : message.toString()
                    });
                }
            }
        }
        return out;
    }
}
