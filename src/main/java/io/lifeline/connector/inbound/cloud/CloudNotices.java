package io.lifeline.connector.inbound.cloud;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.Rfc3339;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * What the cloud translators share: JSON reading with limits, the time formats clouds use, and how a notice
 * becomes an event.
 *
 * <p><b>Ids.</b> A notice's id is {@code <provider>/<instance>/<kind>/<anchor>}, where the anchor is the
 * deadline (or, for a notice without one, such as a rebalance recommendation, the notice time) truncated to the
 * minute, and the source is {@code cloud/<provider>} whatever the channel. So one reclaim reported by EventBridge
 * and by the node's IMDS agent is one event for the pipeline's (source, id) dedupe, even when the two channels'
 * clocks differ by a few seconds.
 */
final class CloudNotices {

    /** Rejection reasons shared by the cloud translators. */
    static final String MALFORMED_JSON = "malformed_json";

    static final String MISSING_FIELD = "missing_field";
    static final String INVALID_TIME = "invalid_time";
    static final String UNKNOWN_INSTANCE = "unknown_instance";

    private static final ObjectMapper MAPPER = Json.untrusted(1 << 16);

    /** IMDS {@code events/maintenance/scheduled}: {@code 21 Jan 2019 09:00:43 GMT}. */
    private static final DateTimeFormatter IMDS_MAINTENANCE =
            DateTimeFormatter.ofPattern("d MMM yyyy HH:mm:ss z", Locale.ENGLISH);

    private CloudNotices() {}

    /** Parses a JSON document; {@code null} when it is not JSON. */
    static JsonNode readJson(byte[] body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException e) {
            return null;
        }
    }

    static Translation malformed(byte[] body) {
        return Translation.rejected(
                MALFORMED_JSON, "not a JSON document (" + (body == null ? 0 : body.length) + " bytes)");
    }

    /** A text field, {@code null} when absent, not text, or blank. */
    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() && !v.textValue().isBlank()
                ? v.textValue().trim()
                : null;
    }

    /** RFC 3339 ({@code 2020-04-24T17:11:44Z}). */
    static Instant rfc3339(String s) {
        return Rfc3339.parseOrNull(s);
    }

    /**
     * RFC 1123 ({@code Tue, 09 Aug 2022 17:07:32 GMT}), as Azure Scheduled Events and AWS Health write it. The
     * day-of-week name is skipped rather than checked: it is redundant, and real documents get it wrong (AWS's
     * own scheduled-change example says {@code Sat, 05 Jun 2016}, a Sunday).
     */
    static Instant rfc1123(String s) {
        int comma = s.indexOf(',');
        return imdsMaintenance(comma >= 0 ? s.substring(comma + 1).trim() : s.trim());
    }

    /** The IMDS maintenance format ({@code 21 Jan 2019 09:00:43 GMT}). */
    static Instant imdsMaintenance(String s) {
        try {
            return ZonedDateTime.parse(s, IMDS_MAINTENANCE).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A node.interruption_notice with the cross-channel id described above. */
    static Event notice(
            String provider,
            String instance,
            String node,
            NoticeKind kind,
            Instant deadline,
            Instant noticeTime,
            Instant time) {
        return notice(provider, instance, node, kind, deadline, null, noticeTime, time);
    }

    /** A node.interruption_notice with the cross-channel id described above and the end of its outage window. */
    static Event notice(
            String provider,
            String instance,
            String node,
            NoticeKind kind,
            Instant deadline,
            Instant windowEnd,
            Instant noticeTime,
            Instant time) {
        Instant anchor = (deadline != null ? deadline : noticeTime).truncatedTo(ChronoUnit.MINUTES);
        String id = provider + "/" + instance.toLowerCase(Locale.ROOT) + "/" + kind.wireName() + "/" + anchor;
        return new Event(
                id,
                "cloud/" + provider,
                EventType.NODE_INTERRUPTION_NOTICE,
                node,
                time,
                new NodeData.InterruptionNotice(kind, provider, deadline, windowEnd));
    }

    /** A node.interruption_notice whose id ends in {@code what} rather than a time (a notice an instance gets once). */
    static Event noticeWithId(
            String provider,
            String instance,
            String node,
            NoticeKind kind,
            String what,
            Instant deadline,
            Instant time) {
        String id = provider + "/" + instance.toLowerCase(Locale.ROOT) + "/" + kind.wireName() + "/" + what;
        return new Event(
                id,
                "cloud/" + provider,
                EventType.NODE_INTERRUPTION_NOTICE,
                node,
                time,
                new NodeData.InterruptionNotice(kind, provider, deadline));
    }

    /** A JSON array holding {@code one}. */
    static JsonNode arrayOf(JsonNode one) {
        return MAPPER.createArrayNode().add(one);
    }

    /** A node.terminated reported by the provider. */
    static Event terminated(String provider, String instance, String node, String reason, Instant time) {
        String id = provider + "/" + instance.toLowerCase(Locale.ROOT) + "/terminated/"
                + time.truncatedTo(ChronoUnit.MINUTES);
        return new Event(
                id, "cloud/" + provider, EventType.NODE_TERMINATED, node, time, new NodeData.Terminated(reason));
    }
}
