package io.lifeline.alert;

import static io.lifeline.testing.TestTokens.asOperator;
import static io.lifeline.testing.TestTokens.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alerts end to end: events make a job's checkpoint stale (its objective is 2 s: interval 1 s × 2), the evaluator
 * fires, and the notification reaches a signed webhook (which fails twice first) and a real Alertmanager; finishing
 * the job resolves it. Receivers are registered at run time on the ports the test opened.
 */
@QuarkusTest
class AlertDeliveryTest {

    private static final String SECRET = "test-webhook-secret";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AlertReceivers receivers;

    @Inject
    AlertStore store;

    @Inject
    DeliveryMetrics metrics;

    /** Submits a job that trains on one node and checkpointed 30 s ago, so its 2 s objective is breached. */
    private static void staleJob(String job, String node) {
        String ns = job.substring(0, job.indexOf('/'));
        Instant t = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        String src = "trainer/" + job;
        List<String> events = List.of(
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/k8s",
                        "job.submitted",
                        job,
                        t,
                        "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":8,"
                                + "\"maxRestarts\":10},\"gpusPerNode\":8,\"checkpointIntervalSeconds\":1}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        src,
                        "trainer.rendezvous",
                        job,
                        t.plusSeconds(1),
                        "{\"round\":1,\"worldSize\":8,\"participants\":[{\"node\":\"" + node
                                + "\",\"firstRank\":0,\"rankCount\":8}]}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(), src, "trainer.progress", job, t.plusSeconds(2), "{\"step\":100}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        src,
                        "trainer.checkpoint.completed",
                        job,
                        t.plusSeconds(30),
                        "{\"checkpointId\":\"ck-100\",\"step\":100}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(), src, "trainer.progress", job, t.plusSeconds(31), "{\"step\":150}"));
        post(CloudEvents.array(events));
    }

    private static void finish(String job) {
        post(CloudEvents.array(List.of(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "job.finished",
                job,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                "{\"outcome\":\"succeeded\"}"))));
    }

    private static void post(String batch) {
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(batch)
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    private static JsonPath alerts(String namespace, String state) {
        return given(asViewer())
                .queryParam("namespace", namespace)
                .queryParam("state", state)
                .get("/api/v1/alerts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static JsonNode json(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean about(TestWebhookReceiver.Request r, String namespace, String status) {
        JsonNode b = json(r.body());
        return namespace.equals(b.path("groupLabels").path("namespace").asText())
                && status.equals(b.path("status").asText());
    }

    @Test
    void signedWebhookIsRetriedAfter500sDeliveredOnceAndReplaysAreRecognisable() throws Exception {
        String job = "alerts-hook/" + CloudEvents.uniqueId().substring(0, 8);
        double retriesBefore = metrics.total(ReceiverKind.WEBHOOK, DeliveryOutcome.RETRY);
        try (TestWebhookReceiver hook = new TestWebhookReceiver(SECRET, 2)) {
            receivers.register(new Receiver("test-webhook", ReceiverKind.WEBHOOK, hook.url(), SECRET));
            try {
                staleJob(job, "alerts-hook-node-1");
                await().atMost(Duration.ofSeconds(40))
                        .until(() -> hook.requests().stream()
                                .anyMatch(r -> r.answered() == 200 && about(r, "alerts-hook", "firing")));
                Thread.sleep(2_000);
                List<TestWebhookReceiver.Request> firing = hook.requests().stream()
                        .filter(r -> about(r, "alerts-hook", "firing"))
                        .toList();
                String key = firing.get(0).idempotencyKey();
                assertThat(key).isNotBlank();
                assertThat(firing)
                        .as("500, 500, then 200 and nothing after the success")
                        .extracting(TestWebhookReceiver.Request::answered)
                        .containsExactly(500, 500, 200);
                assertThat(firing).allSatisfy(r -> {
                    assertThat(r.idempotencyKey()).isEqualTo(key);
                    assertThat(r.verdict()).isEqualTo(WebhookSignature.Result.VALID);
                    assertThat(r.body()).isEqualTo(firing.get(0).body());
                });

                JsonNode body = json(firing.get(2).body());
                assertThat(body.get("version").asText()).isEqualTo("4");
                assertThat(body.get("receiver").asText()).isEqualTo("test-webhook");
                assertThat(body.get("groupKey").asText())
                        .isEqualTo("{}:{alertname=\"CheckpointFreshnessBreached\", namespace=\"alerts-hook\"}");
                JsonNode alert = body.get("alerts").get(0);
                assertThat(alert.get("labels").get("job").asText()).isEqualTo(job);
                assertThat(alert.get("endsAt").asText()).isEqualTo("0001-01-01T00:00:00Z");
                assertThat(body.toString()).doesNotContain(SECRET);

                TestWebhookReceiver.Request delivered = firing.get(2);
                assertThat(WebhookSignature.verify(
                                SECRET,
                                delivered.timestamp(),
                                delivered.body(),
                                delivered.signature(),
                                Instant.now().plus(Duration.ofMinutes(10)),
                                Duration.ofMinutes(5)))
                        .as("the same delivery replayed ten minutes later")
                        .isEqualTo(WebhookSignature.Result.TOO_OLD);

                List<AlertStore.Attempt> attempts = store.attempts("test-webhook", 100).stream()
                        .filter(a -> a.notificationId() != null)
                        .toList();
                assertThat(attempts)
                        .extracting(AlertStore.Attempt::outcome, AlertStore.Attempt::httpStatus)
                        .containsSubsequence(
                                org.assertj.core.groups.Tuple.tuple("retry", 500),
                                org.assertj.core.groups.Tuple.tuple("retry", 500),
                                org.assertj.core.groups.Tuple.tuple("delivered", 200));
                assertThat(metrics.total(ReceiverKind.WEBHOOK, DeliveryOutcome.RETRY) - retriesBefore)
                        .isGreaterThanOrEqualTo(2);
                assertThat(io.lifeline.testing.LifelineApi.metric(
                                "lifeline_webhook_deliveries_total",
                                java.util.Map.of("receiver_kind", "webhook", "outcome", "delivered")))
                        .isGreaterThanOrEqualTo(1);

                JsonPath api = alerts("alerts-hook", "firing");
                assertThat(api.getList("alerts.labels.job", String.class)).contains(job);
                assertThat(api.getList("alerts.rule", String.class)).containsOnly("checkpoint-stale");

                finish(job);
                await().atMost(Duration.ofSeconds(40))
                        .until(() -> hook.requests().stream()
                                .anyMatch(r -> r.answered() == 200 && about(r, "alerts-hook", "resolved")));
                JsonNode resolved = json(hook.requests().stream()
                        .filter(r -> about(r, "alerts-hook", "resolved"))
                        .reduce((a, b) -> b)
                        .orElseThrow()
                        .body());
                assertThat(resolved.get("alerts").get(0).get("endsAt").asText()).isNotEqualTo("0001-01-01T00:00:00Z");
            } finally {
                receivers.remove("test-webhook");
            }
        }
    }

    @Test
    void silencesAreCreatedByOperatorsShownOnAlertsAndExpired() {
        String job = "alerts-hook/" + CloudEvents.uniqueId().substring(0, 8);
        staleJob(job, "alerts-hook-node-2");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> alerts("alerts-hook", "firing")
                        .getList("alerts.labels.job", String.class)
                        .contains(job));
        String body = "{\"matchers\":[{\"name\":\"job\",\"value\":\"" + job + "\"}],\"duration\":\"PT1H\","
                + "\"comment\":\"known: test storage outage\"}";
        given(asViewer())
                .contentType("application/json")
                .body(body)
                .post("/api/v1/silences")
                .then()
                .statusCode(403);
        given(asOperator())
                .contentType("application/json")
                .body("{\"matchers\":[],\"duration\":\"PT1H\",\"comment\":\"x\"}")
                .post("/api/v1/silences")
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
        String id = given(asOperator())
                .contentType("application/json")
                .body(body)
                .post("/api/v1/silences")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("id");
        JsonPath firing = alerts("alerts-hook", "firing");
        int index = firing.getList("alerts.labels.job", String.class).indexOf(job);
        assertThat(firing.getList("alerts[" + index + "].silencedBy", String.class))
                .containsExactly(id);
        assertThat(given(asViewer())
                        .get("/api/v1/silences")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("silences.id", String.class))
                .contains(id);
        given(asOperator())
                .delete("/api/v1/silences/" + id)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("expired"));
        given(asOperator()).delete("/api/v1/silences/no-such-silence").then().statusCode(404);
        assertThat(given(asViewer())
                        .get("/api/v1/silences")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("silences.id", String.class))
                .doesNotContain(id);
        finish(job);
    }

    @Test
    void alertsReachARealAlertmanagerFiringThenResolved() throws Exception {
        String job = "alerts-am/" + CloudEvents.uniqueId().substring(0, 8);
        try (TestAlertmanager am = TestAlertmanager.start()) {
            receivers.register(new Receiver("test-alertmanager", ReceiverKind.ALERTMANAGER, am.url(), null));
            try {
                staleJob(job, "alerts-am-node-1");
                await().atMost(Duration.ofSeconds(40))
                        .until(() -> am.alertsOf(job).size() == 1);
                JsonNode alert = am.alertsOf(job).get(0);
                assertThat(alert.get("status").get("state").asText()).isEqualTo("active");
                assertThat(alert.get("labels").get("alertname").asText()).isEqualTo("CheckpointFreshnessBreached");
                assertThat(alert.get("labels").get("severity").asText())
                        .as("namespace override")
                        .isEqualTo("critical");
                Instant endsAt = Instant.parse(alert.get("endsAt").asText());
                assertThat(endsAt)
                        .as("firing: valid a few resend intervals ahead")
                        .isAfter(Instant.now());

                Instant finished = Instant.now();
                finish(job);
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> am.alertsOf(job).isEmpty());
                assertThat(Duration.between(finished, Instant.now()))
                        .as("resolved by Lifeline's endsAt, not by expiry of the firing one")
                        .isLessThan(Duration.between(finished, endsAt));
                JsonPath resolved = alerts("alerts-am", "resolved");
                assertThat(resolved.getList("alerts.labels.job", String.class)).contains(job);
            } finally {
                receivers.remove("test-alertmanager");
            }
        }
    }

    /** The Debian Alertmanager on free ports, with its configuration and storage under target/. */
    static final class TestAlertmanager implements AutoCloseable {

        private final Process process;
        private final URI url;
        private final HttpClient http = HttpClient.newHttpClient();

        private TestAlertmanager(Process process, URI url) {
            this.process = process;
            this.url = url;
        }

        static TestAlertmanager start() throws Exception {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory(
                    java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "alertmanager-test")), "am");
            java.nio.file.Files.writeString(
                    dir.resolve("alertmanager.yml"),
                    "route:\n  receiver: blackhole\n" + "  group_wait: 1s\nreceivers:\n  - name: blackhole\n");
            int port;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Process p = new ProcessBuilder(
                            "/usr/bin/prometheus-alertmanager",
                            "--config.file=" + dir.resolve("alertmanager.yml"),
                            "--storage.path=" + dir.resolve("data"),
                            "--web.listen-address=127.0.0.1:" + port,
                            "--cluster.listen-address=")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("alertmanager.log").toFile())
                    .start();
            TestAlertmanager am = new TestAlertmanager(p, URI.create("http://127.0.0.1:" + port));
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(am::ready);
            return am;
        }

        URI url() {
            return url;
        }

        boolean ready() throws Exception {
            return http.send(
                                    HttpRequest.newBuilder(url.resolve("/-/ready"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        }

        /** Alertmanager's current alerts (resolved ones are not listed) for a job. */
        List<JsonNode> alertsOf(String job) throws Exception {
            return alertsWith("job", job);
        }

        /** Alertmanager's current alerts whose {@code label} is {@code value}. */
        List<JsonNode> alertsWith(String label, String value) throws Exception {
            String filter = java.net.URLEncoder.encode(label + "=\"" + value + "\"", StandardCharsets.UTF_8);
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(url.resolve("/api/v2/alerts?filter=" + filter))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            List<JsonNode> out = new java.util.ArrayList<>();
            JSON.readTree(r.body()).forEach(out::add);
            return out;
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
