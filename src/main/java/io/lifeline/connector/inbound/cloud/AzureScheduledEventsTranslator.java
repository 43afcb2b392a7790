package io.lifeline.connector.inbound.cloud;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Azure Scheduled Events documents ({@code http://169.254.169.254/metadata/scheduledevents}), as a node agent
 * reads and posts them.
 *
 * <ul>
 *   <li>{@code Preempt} → notice <b>spot_reclaim</b>: Azure sends it only to Spot VMs and Spot scale-set
 *       instances it is evicting, which is what spot_reclaim means (AWS's interruption warning); the
 *       checkpoint-then-drain policy keyed on spot_reclaim must fire for it. {@code preempt} stays for GCP
 *       preemption.</li>
 *   <li>{@code Terminate}, {@code Reboot}, {@code Redeploy} → notice <b>maintenance</b>.</li>
 *   <li>{@code Freeze} (a pause of a few seconds, the VM keeps running) → nothing.</li>
 *   <li>Other event types are rejected ({@code unsupported_event_type}).</li>
 * </ul>
 * Only events in status {@code Scheduled} or {@code Started} count. The deadline is {@code NotBefore} (RFC 1123),
 * absent when Azure leaves it empty (a started event). The window's end is {@code NotBefore} plus
 * {@code DurationInSeconds} (the expected length of the interruption, api-version 2020-07-01 on) when that is
 * positive; {@code -1} (unknown) and {@code 0} (no interruption) give none. One notice per resource (VM name) in {@code Resources},
 * resolved through the {@link NodeResolver}.
 *
 * <p><b>Ids.</b> {@code azure/<resource>/<kind>/<EventId>}: the EventId is stable from Scheduled to Started
 * and across polls, so re-reading the document yields the same ids. {@code DocumentIncarnation} is not part of
 * the id because it changes whenever <em>any</em> event of the document changes. Thread-safe.
 */
public final class AzureScheduledEventsTranslator {

    public static final String UNSUPPORTED_EVENT_TYPE = "unsupported_event_type";
    /** A longer announced interruption is taken as no known end (a year). */
    private static final long MAX_DURATION_SECONDS = 365L * 86400;

    private final NodeResolver nodes;
    private final TranslatorStats stats = new TranslatorStats("azure");

    public AzureScheduledEventsTranslator(NodeResolver nodes) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
    }

    public TranslatorStats stats() {
        return stats;
    }

    /**
     * Translates one Scheduled Events document.
     *
     * @param json        the document
     * @param receivedAt  when the agent read it; the event time
     */
    public Translation translate(byte[] json, Instant receivedAt) {
        return stats.record(doTranslate(json, Objects.requireNonNull(receivedAt, "receivedAt")));
    }

    private Translation doTranslate(byte[] json, Instant receivedAt) {
        JsonNode root = CloudNotices.readJson(json);
        if (root == null || !root.isObject()) {
            return CloudNotices.malformed(json);
        }
        JsonNode list = root.get("Events");
        if (list == null || !list.isArray()) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "Events: required (an array)");
        }
        List<Event> events = new ArrayList<>();
        List<Translation.Rejection> rejections = new ArrayList<>();
        for (JsonNode e : list) {
            translateEvent(e, receivedAt, events, rejections);
        }
        return new Translation(events, rejections);
    }

    private void translateEvent(
            JsonNode e, Instant receivedAt, List<Event> events, List<Translation.Rejection> rejections) {
        String eventId = CloudNotices.text(e, "EventId");
        String type = CloudNotices.text(e, "EventType");
        if (eventId == null || type == null) {
            rejections.add(
                    new Translation.Rejection(CloudNotices.MISSING_FIELD, "an event needs EventId and EventType"));
            return;
        }
        String status = CloudNotices.text(e, "EventStatus");
        if (status != null && !"Scheduled".equalsIgnoreCase(status) && !"Started".equalsIgnoreCase(status)) {
            return;
        }
        NoticeKind kind;
        switch (type) {
            case "Preempt" -> kind = NoticeKind.SPOT_RECLAIM;
            case "Terminate", "Reboot", "Redeploy" -> kind = NoticeKind.MAINTENANCE;
            case "Freeze" -> {
                return;
            }
            default -> {
                rejections.add(
                        new Translation.Rejection(UNSUPPORTED_EVENT_TYPE, "EventType " + type + " of " + eventId));
                return;
            }
        }
        String notBefore = CloudNotices.text(e, "NotBefore");
        Instant deadline = notBefore == null ? null : CloudNotices.rfc1123(notBefore);
        if (notBefore != null && deadline == null) {
            rejections.add(
                    new Translation.Rejection(CloudNotices.INVALID_TIME, "NotBefore of " + eventId + ": " + notBefore));
            return;
        }
        JsonNode duration = e.get("DurationInSeconds");
        Instant windowEnd = deadline != null
                        && duration != null
                        && duration.canConvertToLong()
                        && duration.asLong() > 0
                        && duration.asLong() <= MAX_DURATION_SECONDS
                ? deadline.plusSeconds(duration.asLong())
                : null;
        JsonNode resources = e.path("Resources");
        if (!resources.isArray() || resources.isEmpty()) {
            rejections.add(
                    new Translation.Rejection(CloudNotices.MISSING_FIELD, "Resources of " + eventId + " is empty"));
            return;
        }
        for (JsonNode r : resources) {
            String vm = r.isTextual() ? r.textValue().trim() : "";
            String node = vm.isEmpty() ? null : nodes.nodeFor(vm);
            if (node == null) {
                rejections.add(new Translation.Rejection(
                        CloudNotices.UNKNOWN_INSTANCE, "VM '" + vm + "' of " + eventId + " is not a known node"));
                continue;
            }
            String id = ProviderId.AZURE + "/" + vm.toLowerCase(Locale.ROOT) + "/" + kind.wireName() + "/" + eventId;
            events.add(new Event(
                    id,
                    "cloud/" + ProviderId.AZURE,
                    EventType.NODE_INTERRUPTION_NOTICE,
                    node,
                    receivedAt,
                    new NodeData.InterruptionNotice(kind, ProviderId.AZURE, deadline, windowEnd)));
        }
    }
}
