package io.lifeline.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.OutgoingText;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.GroupNotification;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The wire formats alerts leave in: Alertmanager's webhook payload (version 4, the format of
 * {@code fixtures/alertmanager/webhook_v4_firing_real.json}), Alertmanager's API v2 postable alerts, and
 * Slack-compatible text.
 */
public final class AlertPayloads {

    /** What Alertmanager writes as {@code endsAt} of a firing alert in webhook payloads. */
    static final String ZERO_TIME = "0001-01-01T00:00:00Z";

    private final ObjectMapper json;
    private final String externalUrl;

    public AlertPayloads(ObjectMapper json, String externalUrl) {
        this.json = json;
        this.externalUrl = externalUrl.endsWith("/") ? externalUrl.substring(0, externalUrl.length() - 1) : externalUrl;
    }

    /** Alertmanager's webhook payload for one group notification, as sent to {@code receiver}. */
    public byte[] webhook(GroupNotification g, String receiver) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("version", "4");
        body.put("groupKey", g.groupKey());
        body.put("truncatedAlerts", 0);
        body.put("status", g.status());
        body.put("receiver", receiver);
        body.put("groupLabels", new TreeMap<>(g.groupLabels()));
        body.put("commonLabels", common(g.alerts(), true));
        body.put("commonAnnotations", common(g.alerts(), false));
        body.put("externalURL", externalUrl);
        List<Map<String, Object>> alerts = new ArrayList<>();
        for (Alert a : g.alerts()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", a.state() == AlertState.FIRING ? "firing" : "resolved");
            m.put("labels", a.labels());
            m.put("annotations", a.annotations());
            m.put("startsAt", rfc3339(startsAt(a)));
            m.put("endsAt", a.state() == AlertState.RESOLVED ? rfc3339(a.resolvedAt()) : ZERO_TIME);
            m.put("generatorURL", generatorUrl(a));
            m.put("fingerprint", a.fingerprint());
            alerts.add(m);
        }
        body.put("alerts", alerts);
        return write(body);
    }

    /**
     * Alertmanager API v2 postable alerts. Firing alerts get {@code endsAt = now + validFor}, so Alertmanager resolves
     * them by itself if Lifeline stops sending; resolved ones get their resolution time.
     */
    public byte[] alertmanager(List<Alert> alerts, Instant now, Duration validFor) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Alert a : alerts) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("labels", a.labels());
            m.put("annotations", a.annotations());
            m.put("startsAt", rfc3339(startsAt(a)));
            m.put("endsAt", rfc3339(a.state() == AlertState.RESOLVED ? a.resolvedAt() : now.plus(validFor)));
            m.put("generatorURL", generatorUrl(a));
            out.add(m);
        }
        return write(out);
    }

    /**
     * A Slack-compatible incoming-webhook message. Every text in it is escaped for mrkdwn ({@link OutgoingText#slack}):
     * names and summaries carry what events said, and must not mention {@code @channel}, link elsewhere or break the
     * list; the link is Lifeline's own, its {@code &} written as Slack expects.
     */
    public byte[] slack(GroupNotification g) {
        StringBuilder text = new StringBuilder();
        text.append(g.firing() ? ":rotating_light: *[FIRING:" : ":white_check_mark: *[RESOLVED:")
                .append(g.alerts().stream()
                        .filter(a -> a.state() == AlertState.FIRING)
                        .count())
                .append("] ")
                .append(OutgoingText.slack(g.rule().alertName()));
        if (g.namespace() != null) {
            text.append(" (").append(OutgoingText.slack(g.namespace())).append(')');
        }
        text.append('*');
        for (Alert a : g.alerts()) {
            text.append("\n• ")
                    .append(a.state() == AlertState.FIRING ? "" : "resolved: ")
                    .append(OutgoingText.slack(
                            a.annotations().getOrDefault("summary", a.rule().alertName())))
                    .append(" <")
                    .append(OutgoingText.slack(generatorUrl(a)))
                    .append("|details>");
        }
        return write(Map.of("text", text.toString()));
    }

    private static Instant startsAt(Alert a) {
        return a.firingSince() != null ? a.firingSince() : a.activeSince();
    }

    private String generatorUrl(Alert a) {
        return externalUrl + "/api/v1/alerts?rule=" + a.rule().key() + "&fingerprint="
                + URLEncoder.encode(a.fingerprint(), StandardCharsets.UTF_8);
    }

    /** Labels (or annotations) with the same value on every alert. */
    private static Map<String, String> common(List<Alert> alerts, boolean labels) {
        Map<String, String> common = null;
        for (Alert a : alerts) {
            Map<String, String> m = labels ? a.labels() : a.annotations();
            if (common == null) {
                common = new TreeMap<>(m);
            } else {
                common.entrySet().removeIf(e -> !e.getValue().equals(m.get(e.getKey())));
            }
        }
        return common == null ? Map.of() : common;
    }

    static String rfc3339(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t);
    }

    private byte[] write(Object o) {
        try {
            return json.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alert payload could not be written", e);
        }
    }
}
