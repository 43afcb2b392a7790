package io.lifeline.connector.inbound.nvsentinel;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.codec.Rfc3339;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.dcgm.PciBusIds;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA NVSentinel health events into catalogue events. The input is what NVSentinel's event exporter POSTs (a
 * CloudEvent of type {@code com.nvidia.nvsentinel.health.v1} whose {@code data.healthEvent} is the HealthEvent,
 * {@code recommendedAction} as its enum number), or a bare HealthEvent in protobuf JSON ({@code recommendedAction} as
 * the enum name).
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>health event</th><th>events</th></tr>
 *   <tr><td>each XID in {@code errorCode} ({@code XID-79}, {@code XID_79}, or a bare number of a check whose name
 *       says XID, as the syslog monitor's {@code SysLogsXIDError} writes them; {@code SysLogsGPUFallenOff} is XID 79)
 *       on a GPU the event names: its UUID ({@code gpuUUID}, a {@code GPU_UUID} entity, a {@code GPU} entity holding a
 *       UUID, {@code metadata.gpu_uuid}) with its index (a {@code GPU} entity holding a number,
 *       {@code metadata.gpu_index}), a {@code PCI} entity a dcgm-exporter scrape of the node named, or an index alone
 *       whose GPU such a scrape named</td>
 *       <td>one {@code gpu.xid} per XID (the fatal-XID policy then decides by Lifeline's own XID rules); an XID whose
 *       GPU cannot be told is rejected ({@code unknown_gpu}) and the rest of the event kept</td></tr>
 *   <tr><td>{@code recommendedAction} {@code COMPONENT_RESET}, {@code RUN_FIELDDIAG}, {@code RESTART_VM},
 *       {@code RESTART_BM}, {@code REPLACE_VM}, {@code RUN_DCGMEUD}, or {@code CONTACT_SUPPORT} of a fatal event:
 *       the node must be emptied</td><td>{@code node.interruption_notice} maintenance, provider {@code nvsentinel},
 *       no deadline (the notice policy drains: checkpoint, evict, cordon); none when {@code drainOverrides.skip}
 *       is true (an operator told NVSentinel not to drain for this event)</td></tr>
 *   <tr><td>{@code RESTART_APP}, {@code NONE}, {@code UNKNOWN}, a non-fatal {@code CONTACT_SUPPORT}</td><td>the XIDs
 *       alone, if any (the job's own restart handles an application restart)</td></tr>
 *   <tr><td>{@code isHealthy: true} (a recovery) or {@code processingStrategy: STORE_ONLY}</td><td>nothing</td></tr>
 * </table>
 *
 * <p><b>Ids</b> are made of the event's content (node, time, agent, check, codes, entities, action, message), not
 * of the CloudEvent id, which the exporter draws at random for every export: a redelivery after an exporter restart
 * or a backfill is then stored once, and so is the same event arriving as a CloudEvent and as a bare HealthEvent.
 * An event without a time of its own is dated when received, and its id includes that time.
 *
 * <p><b>Bad input</b> (not an object, a field of the wrong type, no or an invalid node name, an unreadable time, more
 * than {@value #MAX_ENTRIES} error codes or entities) is rejected with a reason. Thread-safe.
 */
public final class NvSentinelTranslator {

    /** Rejection reasons. */
    public static final String MALFORMED_JSON = "malformed_json";

    public static final String NOT_A_HEALTH_EVENT = "not_a_health_event";
    public static final String UNSUPPORTED_EVENT_TYPE = "unsupported_event_type";
    public static final String INVALID_FIELD = "invalid_field";
    public static final String NO_NODE_NAME = "no_node_name";
    public static final String INVALID_NODE_NAME = "invalid_node_name";
    public static final String INVALID_TIME = "invalid_time";
    public static final String TOO_MANY_ENTRIES = "too_many_entries";
    public static final String UNKNOWN_GPU = "unknown_gpu";

    /** The CloudEvent type NVSentinel's exporter sends. */
    public static final String CLOUDEVENT_TYPE = "com.nvidia.nvsentinel.health.v1";
    /** At most this many error codes and impacted entities per event (NVSentinel's own carry a handful). */
    static final int MAX_ENTRIES = 64;

    /** NVSentinel's RecommendedAction enum (data-models/protobufs/health_event.proto). */
    static final Map<Integer, String> ACTIONS = Map.of(
            0,
            "NONE",
            2,
            "COMPONENT_RESET",
            5,
            "CONTACT_SUPPORT",
            6,
            "RUN_FIELDDIAG",
            15,
            "RESTART_VM",
            24,
            "RESTART_BM",
            25,
            "REPLACE_VM",
            26,
            "RUN_DCGMEUD",
            39,
            "RESTART_APP",
            99,
            "UNKNOWN");

    private static final Map<Integer, String> STRATEGIES =
            Map.of(0, "UNSPECIFIED", 1, "EXECUTE_REMEDIATION", 2, "STORE_ONLY");
    private static final Set<String> EMPTY_THE_NODE =
            Set.of("COMPONENT_RESET", "RUN_FIELDDIAG", "RESTART_VM", "RESTART_BM", "REPLACE_VM", "RUN_DCGMEUD");
    private static final List<String> TEXT_FIELDS =
            List.of("nodeName", "agent", "componentClass", "checkName", "message", "generatedTimestamp", "gpuUUID");
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,252}");
    private static final Pattern XID_CODE = Pattern.compile("(?i)^(XID[-_ ]?)?(\\d{1,6})$");
    private static final Pattern GPU_INDEX = Pattern.compile("\\d{1,4}");
    private static final int MAX_XID = 100_000;
    private static final int MAX_GPU_INDEX = 1023;
    private static final int MAX_MESSAGE = 256;

    private final PciBusIds gpus;
    private final TranslatorStats stats = new TranslatorStats("nvsentinel");

    public NvSentinelTranslator(PciBusIds gpus) {
        this.gpus = Objects.requireNonNull(gpus, "gpus");
    }

    public TranslatorStats stats() {
        return stats;
    }

    /** One CloudEvent or bare HealthEvent, received at {@code now}. */
    public Translation translate(JsonNode item, Instant now) {
        return stats.record(doTranslate(item, now));
    }

    /** A body that is not JSON at all, counted like any other refused input. */
    public Translation malformed(String detail) {
        return stats.record(Translation.rejected(MALFORMED_JSON, detail));
    }

    private Translation doTranslate(JsonNode item, Instant now) {
        if (item == null || !item.isObject()) {
            return Translation.rejected(NOT_A_HEALTH_EVENT, "not a JSON object");
        }
        JsonNode he;
        String ceTime = null;
        if (item.has("specversion") || item.has("data")) {
            JsonNode type = item.get("type");
            if (type != null && !(type.isTextual() && CLOUDEVENT_TYPE.equals(type.textValue()))) {
                return Translation.rejected(
                        UNSUPPORTED_EVENT_TYPE,
                        "CloudEvent type " + abbreviate(type.toString(), 80) + " is not " + CLOUDEVENT_TYPE);
            }
            he = item.path("data").path("healthEvent");
            if (!he.isObject()) {
                return Translation.rejected(NOT_A_HEALTH_EVENT, "a CloudEvent without a data.healthEvent object");
            }
            JsonNode t = item.get("time");
            ceTime = t != null && t.isTextual() ? t.textValue() : null;
        } else if (item.has("nodeName") || item.has("checkName") || item.has("agent")) {
            he = item;
        } else {
            return Translation.rejected(
                    NOT_A_HEALTH_EVENT, "neither a CloudEvent with data.healthEvent nor a HealthEvent");
        }
        String wrong = wrongType(he);
        if (wrong != null) {
            return Translation.rejected(INVALID_FIELD, wrong);
        }
        if (he.path("errorCode").size() > MAX_ENTRIES
                || he.path("entitiesImpacted").size() > MAX_ENTRIES) {
            return Translation.rejected(
                    TOO_MANY_ENTRIES,
                    "errorCode " + he.path("errorCode").size() + ", entitiesImpacted "
                            + he.path("entitiesImpacted").size() + "; at most " + MAX_ENTRIES + " each");
        }
        String node = text(he, "nodeName");
        if (node == null) {
            return Translation.rejected(NO_NODE_NAME, "healthEvent.nodeName is missing or empty");
        }
        if (!NODE_NAME.matcher(node).matches()) {
            return Translation.rejected(
                    INVALID_NODE_NAME, "healthEvent.nodeName is not a valid node name: " + abbreviate(node, 80));
        }
        if (he.path("isHealthy").asBoolean(false)
                || "STORE_ONLY".equals(enumName(he.get("processingStrategy"), STRATEGIES))) {
            return Translation.empty();
        }
        String ts = text(he, "generatedTimestamp") != null ? text(he, "generatedTimestamp") : ceTime;
        Instant time = ts == null ? now : Rfc3339.parseOrNull(ts);
        if (time == null) {
            return Translation.rejected(
                    INVALID_TIME, "generatedTimestamp is not an RFC 3339 time: " + abbreviate(ts, 80));
        }
        String action = enumName(he.get("recommendedAction"), ACTIONS);
        boolean fatal = he.path("isFatal").asBoolean(false);
        String key = "nvsentinel/" + contentId(he, node, action, fatal, ts == null ? time : null);
        String source =
                "nvsentinel/" + (text(he, "agent") != null ? abbreviate(text(he, "agent"), 64) : "health-event");

        List<Event> out = new ArrayList<>(2);
        List<Translation.Rejection> rejected = new ArrayList<>(1);
        Set<Integer> xids = xids(he);
        if (!xids.isEmpty()) {
            PciBusIds.Gpu gpu = gpu(he, node);
            if (gpu == null) {
                rejected.add(
                        new Translation.Rejection(
                                UNKNOWN_GPU,
                                "XID " + xids + " on node " + node + ": the event "
                                        + "names no GPU UUID with its index, nor a PCI address a dcgm-exporter scrape of the node named"));
            } else {
                for (int xid : xids) {
                    out.add(new Event(
                            key + "/xid/" + xid,
                            source,
                            EventType.GPU_XID,
                            node,
                            time,
                            new GpuData.Xid(gpu.uuid(), gpu.index(), xid, message(he))));
                }
            }
        }
        boolean emptyTheNode =
                action != null && (EMPTY_THE_NODE.contains(action) || "CONTACT_SUPPORT".equals(action) && fatal);
        if (emptyTheNode && !he.path("drainOverrides").path("skip").asBoolean(false)) {
            out.add(new Event(
                    key + "/notice",
                    source,
                    EventType.NODE_INTERRUPTION_NOTICE,
                    node,
                    time,
                    new NodeData.InterruptionNotice(NoticeKind.MAINTENANCE, "nvsentinel", null)));
        }
        return new Translation(out, rejected);
    }

    /** Why a field has a type protobuf JSON would not give it, or null. */
    private static String wrongType(JsonNode he) {
        for (String f : TEXT_FIELDS) {
            JsonNode v = he.get(f);
            if (v != null && !v.isNull() && !v.isTextual()) {
                return "healthEvent." + f + " must be a string, not "
                        + v.getNodeType().name().toLowerCase(Locale.ROOT);
            }
        }
        for (String f : List.of("isFatal", "isHealthy")) {
            JsonNode v = he.get(f);
            if (v != null && !v.isNull() && !v.isBoolean()) {
                return "healthEvent." + f + " must be a boolean";
            }
        }
        for (String f : List.of("recommendedAction", "processingStrategy")) {
            JsonNode v = he.get(f);
            if (v != null && !v.isNull() && !v.isTextual() && !v.isIntegralNumber()) {
                return "healthEvent." + f + " must be an enum name or number";
            }
        }
        JsonNode codes = he.get("errorCode");
        if (codes != null && !codes.isNull()) {
            if (!codes.isArray()) {
                return "healthEvent.errorCode must be an array of strings";
            }
            for (JsonNode c : codes) {
                if (!c.isTextual()) {
                    return "healthEvent.errorCode must be an array of strings";
                }
            }
        }
        JsonNode entities = he.get("entitiesImpacted");
        if (entities != null && !entities.isNull()) {
            if (!entities.isArray()) {
                return "healthEvent.entitiesImpacted must be an array of {entityType, entityValue}";
            }
            for (JsonNode e : entities) {
                if (!e.isObject() || !textOrAbsent(e.get("entityType")) || !textOrAbsent(e.get("entityValue"))) {
                    return "healthEvent.entitiesImpacted must be an array of {entityType, entityValue}";
                }
            }
        }
        for (String f : List.of("metadata", "drainOverrides", "quarantineOverrides")) {
            JsonNode v = he.get(f);
            if (v != null && !v.isNull() && !v.isObject()) {
                return "healthEvent." + f + " must be an object";
            }
        }
        return null;
    }

    private static boolean textOrAbsent(JsonNode v) {
        return v == null || v.isNull() || v.isTextual();
    }

    /** The XIDs among the error codes, each once, in their order. */
    private static Set<Integer> xids(JsonNode he) {
        String name = String.valueOf(text(he, "checkName"));
        String check = name.toLowerCase(Locale.ROOT);
        // SysLogsSXIDError: NVSwitch errors, whose numbers are not GPU XIDs (SysLogsXIDError holds "sXID" too)
        boolean xidCheck = check.contains("xid") && !name.contains("SXID");
        Set<Integer> out = new LinkedHashSet<>();
        for (JsonNode c : he.path("errorCode")) {
            Matcher m = XID_CODE.matcher(c.textValue().trim());
            if (m.matches() && (m.group(1) != null || xidCheck)) {
                int v = Integer.parseInt(m.group(2));
                if (v >= 1 && v <= MAX_XID) {
                    out.add(v);
                }
            }
        }
        if (out.isEmpty() && check.contains("fallenoff")) {
            out.add(79);
        }
        return out;
    }

    /**
     * The GPU: the one a dcgm scrape placed at the event's PCI address, or the event's UUID with its index. A UUID
     * without an index is not enough: the model keeps a node's GPUs by index, and a guessed one would stand for
     * another GPU.
     */
    private PciBusIds.Gpu gpu(JsonNode he, String node) {
        String uuid = text(he, "gpuUUID");
        Integer index = null;
        String pci = null;
        for (JsonNode e : he.path("entitiesImpacted")) {
            String type = text(e, "entityType");
            String value = text(e, "entityValue");
            if (type == null || value == null) {
                continue;
            }
            switch (type.toUpperCase(Locale.ROOT)) {
                case "GPU_UUID" -> uuid = uuid != null ? uuid : value;
                case "GPU" -> {
                    Integer i = parseIndex(value);
                    if (i != null) {
                        index = index != null ? index : i;
                    } else if (value.startsWith("GPU-") && uuid == null) {
                        uuid = value;
                    }
                }
                case "PCI" -> pci = pci != null ? pci : value;
                default -> {}
            }
        }
        JsonNode metadata = he.path("metadata");
        uuid = uuid != null ? uuid : text(metadata, "gpu_uuid");
        index = index != null ? index : parseIndex(text(metadata, "gpu_index"));
        PciBusIds.Gpu known = pci != null ? gpus.find(node, pci) : null;
        if (known == null && uuid == null && index != null) {
            known = gpus.atIndex(node, index); // a GPU named by its index alone, as NVSentinel's own samples do
        }
        if (uuid == null || known != null && known.uuid().equals(uuid)) {
            return known;
        }
        return index != null ? new PciBusIds.Gpu(abbreviate(uuid, 128), index) : null;
    }

    /** A name-based UUID of what makes the event this event, whichever form it came in. */
    private static String contentId(JsonNode he, String node, String action, boolean fatal, Instant receivedAt) {
        StringBuilder k = new StringBuilder(256).append(node).append('\n');
        String ts = text(he, "generatedTimestamp");
        Instant t = ts == null ? null : Rfc3339.parseOrNull(ts);
        k.append(t != null ? t.toString() : "received " + receivedAt).append('\n');
        for (String f : List.of("agent", "componentClass", "checkName", "message")) {
            k.append(text(he, f)).append('\n');
        }
        k.append(action).append('\n').append(fatal).append('\n');
        he.path("errorCode").forEach(c -> k.append(c.textValue()).append(','));
        k.append('\n');
        he.path("entitiesImpacted")
                .forEach(e -> k.append(text(e, "entityType"))
                        .append('=')
                        .append(text(e, "entityValue"))
                        .append(','));
        return UUID.nameUUIDFromBytes(k.toString().getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    private static String message(JsonNode he) {
        String m = text(he, "message");
        return m == null ? null : abbreviate(m, MAX_MESSAGE);
    }

    private static Integer parseIndex(String s) {
        if (s == null || !GPU_INDEX.matcher(s).matches()) {
            return null;
        }
        int v = Integer.parseInt(s);
        return v <= MAX_GPU_INDEX ? v : null;
    }

    /** An enum as protobuf JSON writes it (name) or NVSentinel's exporter does (number). */
    private static String enumName(JsonNode v, Map<Integer, String> byNumber) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return byNumber.getOrDefault(v.asInt(), "UNKNOWN");
        }
        String s = v.asText("").trim().toUpperCase(Locale.ROOT);
        return s.isEmpty() ? null : s;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && v.isTextual() && !v.textValue().isBlank()
                ? v.textValue().trim()
                : null;
    }

    private static String abbreviate(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = max - 3;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "...";
    }
}
