package io.lifeline.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.domain.alert.AlertEngine;
import io.lifeline.domain.alert.AlertGroups;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertRules;
import io.lifeline.domain.alert.AlertSnapshot;
import io.lifeline.domain.alert.Evaluation;
import io.lifeline.domain.alert.GroupNotification;
import io.lifeline.domain.alert.RuleSettings;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlertPayloadsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private final ObjectMapper json = new ObjectMapper();
    private final AlertPayloads payloads = new AlertPayloads(json, "https://lifeline.example.com/");

    private GroupNotification firingGroup() {
        AlertEngine e = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ZERO, null, null)),
                10,
                10);
        AlertSnapshot s = new AlertSnapshot(
                List.of(
                        new AlertSnapshot.JobFacts("ml/a", "ml", true, 7_200_000L, 3_600_000L, List.of()),
                        new AlertSnapshot.JobFacts("ml/b", "ml", true, 9_000_000L, 3_600_000L, List.of())),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                null);
        Evaluation ev = e.evaluate(s, List.of(), T0);
        return AlertGroups.notifications(ev).get(0);
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void webhookPayloadHasEveryFieldOfAlertmanagersRealPayload() throws Exception {
        JsonNode real = json.readTree(Fixtures.text("alertmanager/webhook_v4_firing_real.json"));
        JsonNode ours = json.readTree(payloads.webhook(firingGroup(), "on-call"));
        assertThat(fields(ours)).containsAll(fields(real));
        assertThat(fields(ours.get("alerts").get(0)))
                .containsAll(fields(real.get("alerts").get(0)));
        assertThat(ours.get("version").asText()).isEqualTo("4");
        assertThat(ours.get("status").asText()).isEqualTo("firing");
        assertThat(ours.get("receiver").asText()).isEqualTo("on-call");
        assertThat(ours.get("groupKey").asText())
                .isEqualTo("{}:{alertname=\"CheckpointFreshnessBreached\", namespace=\"ml\"}");
        assertThat(ours.get("externalURL").asText()).isEqualTo("https://lifeline.example.com");
        assertThat(ours.get("commonLabels").has("job"))
                .as("differs between the two alerts")
                .isFalse();
        assertThat(ours.get("commonLabels").get("namespace").asText()).isEqualTo("ml");
        JsonNode alert = ours.get("alerts").get(0);
        assertThat(alert.get("endsAt").asText())
                .isEqualTo(real.get("alerts").get(0).get("endsAt").asText());
        assertThat(Instant.parse(alert.get("startsAt").asText())).isEqualTo(T0);
        assertThat(alert.get("generatorURL").asText()).startsWith("https://lifeline.example.com/api/v1/alerts?rule=");
    }

    @Test
    void alertmanagerPayloadIsAnArrayOfPostableAlertsWithEndsAtAhead() throws Exception {
        GroupNotification g = firingGroup();
        JsonNode body = json.readTree(payloads.alertmanager(g.alerts(), T0, Duration.ofMinutes(4)));
        assertThat(body.isArray()).isTrue();
        assertThat(fields(body.get(0)))
                .containsExactlyInAnyOrder("labels", "annotations", "startsAt", "endsAt", "generatorURL");
        assertThat(Instant.parse(body.get(0).get("endsAt").asText())).isEqualTo(T0.plus(Duration.ofMinutes(4)));
    }

    @Test
    void slackTextNamesTheGroupAndItsAlerts() throws Exception {
        JsonNode body = json.readTree(payloads.slack(firingGroup()));
        assertThat(fields(body)).containsExactly("text");
        assertThat(body.get("text").asText())
                .contains("[FIRING:2] CheckpointFreshnessBreached (ml)")
                .contains("Checkpoint of ml/a");
    }

    @Test
    void slackTextEscapesWhatMrkdwnWouldReadAsMentionsLinksOrLines() throws Exception {
        AlertEngine e = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ZERO, null, null)),
                10,
                10);
        String job = "ml/<http://evil.example|disguised> & <!here>\n\u2022 resolved: all clear";
        AlertSnapshot s = new AlertSnapshot(
                List.of(new AlertSnapshot.JobFacts(job, "<!channel>", true, 7_200_000L, 3_600_000L, List.of())),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                null);
        GroupNotification g =
                AlertGroups.notifications(e.evaluate(s, List.of(), T0)).get(0);
        String text = json.readTree(payloads.slack(g)).get("text").asText();
        assertThat(text)
                .doesNotContain("<!channel>")
                .doesNotContain("<!here>")
                .doesNotContain("<http://evil")
                .contains("(&lt;!channel&gt;)")
                .contains("&lt;http://evil.example|disguised&gt; &amp; &lt;!here&gt;\\n\u2022 resolved: all clear");
        // One line per alert, and the only link is Lifeline's own.
        assertThat(text.split("\n")).hasSize(2);
        assertThat(text.chars().filter(c -> c == '<').count()).isEqualTo(1);
        assertThat(text)
                .contains("<https://lifeline.example.com/api/v1/alerts?rule=")
                .contains("&amp;fingerprint=");
    }

    @Test
    void signatureVerifiesAndRefusesReplaysAndTampering() {
        byte[] body = "{\"version\":\"4\"}".getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(T0.getEpochSecond());
        String sig = WebhookSignature.sign("s3cret", ts, body);
        assertThat(sig).matches("sha256=[0-9a-f]{64}");
        Duration tol = Duration.ofMinutes(5);
        assertThat(WebhookSignature.verify("s3cret", ts, body, sig, T0.plusSeconds(30), tol))
                .isEqualTo(WebhookSignature.Result.VALID);
        assertThat(WebhookSignature.verify("s3cret", ts, body, sig, T0.plus(Duration.ofMinutes(6)), tol))
                .isEqualTo(WebhookSignature.Result.TOO_OLD);
        assertThat(WebhookSignature.verify("other", ts, body, sig, T0, tol))
                .isEqualTo(WebhookSignature.Result.BAD_SIGNATURE);
        assertThat(WebhookSignature.verify("s3cret", Long.toString(T0.getEpochSecond() + 1), body, sig, T0, tol))
                .as("a replay with a fresh timestamp but the old signature")
                .isEqualTo(WebhookSignature.Result.BAD_SIGNATURE);
        assertThat(WebhookSignature.verify("s3cret", null, body, sig, T0, tol))
                .isEqualTo(WebhookSignature.Result.MALFORMED);
    }

    @Test
    void receiverNeverPrintsItsAddressOrSecret() {
        Receiver r = new Receiver(
                "slack-oncall",
                ReceiverKind.SLACK,
                java.net.URI.create("https://hooks.slack.com/services/T000/B000/XXXXSECRET"),
                "topsecret");
        assertThat(r.toString())
                .doesNotContain("XXXXSECRET")
                .doesNotContain("topsecret")
                .contains("slack-oncall");
        Receiver am = new Receiver("am", ReceiverKind.ALERTMANAGER, java.net.URI.create("http://am:9093/"), null);
        assertThat(am.target().toString()).isEqualTo("http://am:9093/api/v2/alerts");
    }
}
