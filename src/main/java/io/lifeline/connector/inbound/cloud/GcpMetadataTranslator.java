package io.lifeline.connector.inbound.cloud;

import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.NoticeKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Google Compute Engine metadata values a node agent watches and posts:
 * <ul>
 *   <li>{@code instance/preempted}: {@code TRUE} → notice <b>preempt</b> with deadline observation + 30 s
 *       (GCE gives a preempted or Spot VM 30 seconds before it stops it); {@code FALSE} → nothing;</li>
 *   <li>{@code instance/maintenance-event}: {@code TERMINATE_ON_HOST_MAINTENANCE} → notice <b>maintenance</b>
 *       with deadline observation + 60 s (the value changes 60 seconds before the event);
 *       {@code MIGRATE_ON_HOST_MAINTENANCE} (a live migration, the VM keeps running) and {@code NONE} →
 *       nothing.</li>
 * </ul>
 * Ids follow {@link CloudNotices}; agents should post on the value's transition, and posts within the same
 * minute are one event anyway. Other values are rejected ({@code unsupported_value}). Thread-safe.
 */
public final class GcpMetadataTranslator {

    public static final String UNSUPPORTED_VALUE = "unsupported_value";
    public static final Duration PREEMPTION_NOTICE = Duration.ofSeconds(30);
    public static final Duration MAINTENANCE_NOTICE = Duration.ofSeconds(60);

    private final NodeResolver nodes;
    private final TranslatorStats stats = new TranslatorStats("gcp");

    public GcpMetadataTranslator(NodeResolver nodes) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
    }

    public TranslatorStats stats() {
        return stats;
    }

    /**
     * A metadata value as an agent posts it: the plain text the metadata server answers, or the JSON string it answers
     * with {@code ?alt=json} ({@code "TRUE"}).
     */
    public static String metadataValue(byte[] body) {
        String s = body == null ? "" : new String(body, java.nio.charset.StandardCharsets.UTF_8).trim();
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            s = s.substring(1, s.length() - 1).trim();
        }
        return s;
    }

    /** The value of {@code instance/preempted} on instance {@code instanceName}, observed at {@code observedAt}. */
    public Translation preempted(String instanceName, String value, Instant observedAt) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        Translation t = switch (v) {
            case "TRUE" -> notice(instanceName, NoticeKind.PREEMPT, observedAt, PREEMPTION_NOTICE);
            case "FALSE" -> Translation.empty();
            default ->
                Translation.rejected(UNSUPPORTED_VALUE, "preempted: expected TRUE or FALSE, got '" + value + "'");
        };
        return stats.record(t);
    }

    /** The value of {@code instance/maintenance-event} on instance {@code instanceName}, observed at {@code observedAt}. */
    public Translation maintenanceEvent(String instanceName, String value, Instant observedAt) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        Translation t = switch (v) {
            case "TERMINATE_ON_HOST_MAINTENANCE" ->
                notice(instanceName, NoticeKind.MAINTENANCE, observedAt, MAINTENANCE_NOTICE);
            case "NONE", "MIGRATE_ON_HOST_MAINTENANCE" -> Translation.empty();
            default -> Translation.rejected(UNSUPPORTED_VALUE, "maintenance-event: unexpected value '" + value + "'");
        };
        return stats.record(t);
    }

    private Translation notice(String instanceName, NoticeKind kind, Instant observedAt, Duration lead) {
        Objects.requireNonNull(observedAt, "observedAt");
        if (instanceName == null || instanceName.isBlank()) {
            return Translation.rejected(CloudNotices.MISSING_FIELD, "the agent must say which instance it runs on");
        }
        String node = nodes.nodeFor(instanceName);
        if (node == null) {
            return Translation.rejected(
                    CloudNotices.UNKNOWN_INSTANCE, "instance " + instanceName + " is not a known node");
        }
        return Translation.of(List.of(CloudNotices.notice(
                ProviderId.GCP, instanceName.trim(), node, kind, observedAt.plus(lead), observedAt, observedAt)));
    }
}
