package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The DRA devices the cluster publishes ({@code resource.k8s.io} ResourceSlices) and the DeviceTaintRules over them,
 * as far as they name GPUs: each device of a node-local slice with a {@code uuid} attribute (the NVIDIA DRA driver
 * publishes one on every GPU, {@code parentUUID} on MIG devices, which count for their GPU) is a GPU of the slice's
 * {@code spec.nodeName}. A GPU's taints are those of its devices in their slices plus those of the rules selecting
 * them (by driver, pool and device name; a rule without a selector selects nothing). Whenever a GPU's taints change,
 * one {@code gpu.device_health} from source {@code dra-taint} says its strongest effect and its taints. Also answers
 * which GPU a DRA resource id ({@code <driver>/<pool>/<device>}) names, for pods' {@code allocatedResourcesStatus}.
 *
 * <p>Devices of slices without a node (network-attached devices, {@code perDeviceNodeSelection}) and devices without a
 * {@code uuid} attribute cannot be put on a node's GPU and are left out. Thread-safe: the informers of both kinds and
 * the pod informers call it.
 */
final class DraDevices {

    /** One device of a slice that names a GPU. */
    record Device(String driver, String pool, String name, String node, String uuid, int index, List<String> taints) {

        String key() {
            return driver + "/" + pool + "/" + name;
        }
    }

    /** A DeviceTaintRule as far as Lifeline can apply it. */
    record Rule(
            String uid, String generation, String driver, String pool, String device, boolean selects, String taint) {

        boolean matches(Device d) {
            return selects
                    && (driver == null || driver.equals(d.driver()))
                    && (pool == null || pool.equals(d.pool()))
                    && (device == null || device.equals(d.name()));
        }
    }

    private final Map<String, List<Device>> slices = new HashMap<>();
    private final Map<String, String> sliceVersions = new HashMap<>();
    private final Map<String, Rule> rules = new HashMap<>();
    /** GPU ({@code node/uuid}) → the taints last reported for it ("" when none). */
    private final Map<String, String> reported = new HashMap<>();

    /** A slice was added or changed: its GPUs whose taints changed. */
    synchronized List<Event> slice(GenericKubernetesResource slice, String source, Instant now) {
        String name = slice.getMetadata().getName();
        List<Device> devices = devices(slice);
        slices.put(name, devices);
        sliceVersions.put(
                name, KubeContext.uid(slice) + "@" + slice.getMetadata().getGeneration());
        return changed(gpusOf(devices), source, now);
    }

    /** A slice is gone: its devices with it (the driver publishes them again, or the node went). */
    synchronized void sliceDeleted(GenericKubernetesResource slice) {
        String name = slice.getMetadata().getName();
        List<Device> gone = slices.remove(name);
        sliceVersions.remove(name);
        if (gone != null) {
            for (Device d : gone) {
                reported.remove(d.node() + "/" + d.uuid());
            }
        }
    }

    /** A rule was added, changed ({@code rule} non-null) or deleted (null): the GPUs it selected or selects now. */
    synchronized List<Event> rule(String name, GenericKubernetesResource rule, String source, Instant now) {
        Rule before = rules.remove(name);
        Rule after = rule == null ? null : rule(rule);
        if (after != null) {
            rules.put(name, after);
        }
        List<String> touched = new ArrayList<>();
        for (List<Device> devices : slices.values()) {
            for (Device d : devices) {
                if ((before != null && before.matches(d)) || (after != null && after.matches(d))) {
                    touched.add(d.node() + "/" + d.uuid());
                }
            }
        }
        return changed(touched, source, now);
    }

    /** The GPU a DRA resource id names, or null when no published device has that id. */
    synchronized Device lookup(String resourceId) {
        for (List<Device> devices : slices.values()) {
            for (Device d : devices) {
                if (d.key().equals(resourceId)) {
                    return d;
                }
            }
        }
        return null;
    }

    private List<String> gpusOf(List<Device> devices) {
        List<String> out = new ArrayList<>();
        for (Device d : devices) {
            out.add(d.node() + "/" + d.uuid());
        }
        return out;
    }

    /** One event per GPU (of {@code gpus}) whose taints differ from those last reported. */
    private List<Event> changed(List<String> gpus, String source, Instant now) {
        List<Event> out = new ArrayList<>();
        for (String gpu : new TreeSet<>(gpus)) {
            TreeSet<String> taints = new TreeSet<>();
            TreeSet<String> tainted = new TreeSet<>();
            TreeSet<String> versions = new TreeSet<>();
            Device any = null;
            for (Map.Entry<String, List<Device>> s : slices.entrySet()) {
                for (Device d : s.getValue()) {
                    if (!gpu.equals(d.node() + "/" + d.uuid())) {
                        continue;
                    }
                    any = any == null || d.index() >= 0 ? d : any;
                    versions.add(sliceVersions.get(s.getKey()));
                    List<String> own = new ArrayList<>(d.taints());
                    for (Rule r : rules.values()) {
                        if (r.matches(d)) {
                            own.add(r.taint());
                            versions.add(r.uid() + "@" + r.generation());
                        }
                    }
                    if (!own.isEmpty()) {
                        taints.addAll(own);
                        tainted.add(d.key());
                    }
                }
            }
            if (any == null) {
                continue;
            }
            String detail = String.join(", ", taints);
            if (detail.equals(reported.get(gpu))) {
                continue;
            }
            reported.put(gpu, detail);
            String state = taints.isEmpty() ? "Healthy" : strongest(taints);
            String device = tainted.isEmpty() ? any.key() : String.join(", ", tainted);
            out.add(new Event(
                    "dra/" + gpu + "/" + digest(state + "|" + detail + "|" + versions),
                    source,
                    EventType.GPU_DEVICE_HEALTH,
                    any.node(),
                    now,
                    new GpuData.DeviceHealth(
                            any.uuid(),
                            any.index(),
                            GpuData.DeviceHealth.DRA_TAINT,
                            device,
                            state,
                            detail.isEmpty() ? null : KubeContext.text(detail))));
        }
        return out;
    }

    /** NoExecute, then NoSchedule, then anything else (None, or an effect newer than this release: as None). */
    static String strongest(Iterable<String> taints) {
        String best = "None";
        for (String t : taints) {
            String effect = t.substring(t.lastIndexOf(':') + 1);
            if ("NoExecute".equals(effect)) {
                return effect;
            }
            if ("NoSchedule".equals(effect)) {
                best = effect;
            }
        }
        return best;
    }

    /** The GPUs of a slice: devices with a {@code uuid}, in {@code spec.devices[]} (v1, v1beta2) or their basic part. */
    static List<Device> devices(GenericKubernetesResource slice) {
        String driver = Generic.string(slice, "spec", "driver");
        String pool = Generic.string(slice, "spec", "pool", "name");
        String node = Generic.string(slice, "spec", "nodeName");
        List<Device> out = new ArrayList<>();
        List<?> devices = Generic.list(slice, "spec", "devices");
        if (driver == null || pool == null || node == null || devices == null) {
            return out;
        }
        for (Object o : devices) {
            if (!(o instanceof Map<?, ?> d) || !(d.get("name") instanceof String name)) {
                continue;
            }
            Map<?, ?> body = d.get("basic") instanceof Map<?, ?> basic ? basic : d;
            Map<?, ?> attributes = body.get("attributes") instanceof Map<?, ?> a ? a : Map.of();
            String uuid = attribute(attributes, driver, "parentUUID", "string");
            if (uuid == null) {
                uuid = attribute(attributes, driver, "uuid", "string");
            }
            if (uuid == null) {
                continue;
            }
            String index = attribute(attributes, driver, "index", "int");
            List<String> taints = new ArrayList<>();
            if (body.get("taints") instanceof List<?> list) {
                for (Object t : list) {
                    String taint = t instanceof Map<?, ?> m ? taint(m) : null;
                    if (taint != null) {
                        taints.add(taint);
                    }
                }
            }
            out.add(new Device(
                    driver, pool, name, node, uuid, index == null ? -1 : Integer.parseInt(index), List.copyOf(taints)));
        }
        return out;
    }

    static Rule rule(GenericKubernetesResource r) {
        Object taint = Generic.at(r, "spec", "taint");
        String t = taint instanceof Map<?, ?> m ? taint(m) : null;
        Object selector = Generic.at(r, "spec", "deviceSelector");
        if (t == null) {
            return null;
        }
        Map<?, ?> s = selector instanceof Map<?, ?> m ? m : null;
        return new Rule(
                KubeContext.uid(r),
                String.valueOf(r.getMetadata().getGeneration()),
                s == null ? null : Generic.str(s.get("driver")),
                s == null ? null : Generic.str(s.get("pool")),
                s == null ? null : Generic.str(s.get("device")),
                s != null,
                t);
    }

    /** {@code key=value:effect}, or {@code key:effect} without a value; null without a key. */
    static String taint(Map<?, ?> t) {
        String key = Generic.str(t.get("key"));
        if (key == null) {
            return null;
        }
        String value = Generic.str(t.get("value"));
        String effect = Objects.requireNonNullElse(Generic.str(t.get("effect")), "None");
        return key + (value == null || value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }

    /** An attribute by its short name or qualified by the driver's domain; its value of the given type as text. */
    private static String attribute(Map<?, ?> attributes, String driver, String name, String type) {
        Object a = attributes.get(name);
        if (a == null) {
            a = attributes.get(driver + "/" + name);
        }
        if (!(a instanceof Map<?, ?> value)) {
            return null;
        }
        Object v = value.get(type);
        return v == null ? null : String.valueOf(v);
    }

    private static String digest(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** For tests: the GPUs known, by {@code node/uuid}, with their taints. */
    synchronized Map<String, String> reported() {
        return new TreeMap<>(reported);
    }
}
