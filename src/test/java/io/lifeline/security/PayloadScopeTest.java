package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.lifeline.alert.AlertReceivers;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Payload fields stay in the scope of the token that sent them, as the security probe found they did not: a
 * namespace's token cannot move its job into another namespace with {@code job.submitted}'s {@code data.namespace}
 * (nor put Slack markup there), nor make another team's nodes visible to its namespace by naming them in a
 * {@code trainer.rendezvous} (no cluster here to say where its pods run: a fleet-wide token places jobs).
 */
@QuarkusTest
class PayloadScopeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AlertReceivers receivers;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static String submitted(String job, String namespace, Instant at, String extra) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "trainer/" + job,
                "job.submitted",
                job,
                at,
                "{\"namespace\":\"" + namespace + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":8,"
                        + "\"maxRestarts\":3},\"gpusPerNode\":8" + extra + "}");
    }

    private static String rendezvous(String job, Instant at, String... nodes) {
        StringBuilder ps = new StringBuilder();
        for (int i = 0; i < nodes.length; i++) {
            ps.append(i == 0 ? "" : ",")
                    .append("{\"node\":\"")
                    .append(nodes[i])
                    .append("\",\"firstRank\":")
                    .append(i * 8)
                    .append(",\"rankCount\":8}");
        }
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "trainer/" + job,
                "trainer.rendezvous",
                job,
                at,
                "{\"round\":1,\"worldSize\":" + 8 * nodes.length + ",\"participants\":[" + ps + "]}");
    }

    private static JsonPath post(String token, String event) {
        return given(TestTokens.auth(token))
                .contentType("application/cloudevents+json")
                .body(event)
                .post("/api/v1/events")
                .then()
                .extract()
                .jsonPath();
    }

    @Test
    void aSubmissionCannotMoveItsJobIntoAnotherNamespace() {
        String speech = "speech-" + tag;
        String research = "research-" + tag;
        String job = speech + "/whisper-large-v3-ft";
        String speechIngest = TestTokens.create("speech-ingest-" + tag, Role.INGEST, List.of(speech));
        assertThat(post(speechIngest, submitted(job, speech, now.minusSeconds(60), ""))
                        .getInt("applied"))
                .isEqualTo(1);

        JsonPath moved = post(speechIngest, submitted(job, research, now, ""));
        assertThat(moved.getInt("accepted")).isEqualTo(1);
        assertThat(moved.getInt("applied")).isZero();
        assertThat(moved.getString("notApplied[0].reason")).isEqualTo("scope_mismatch");
        assertThat(moved.getString("notApplied[0].detail"))
                .contains("'" + research + "'")
                .contains(job);
        JsonPath markup = post(speechIngest, submitted(job, "<!channel>", now.plusMillis(1), ""));
        assertThat(markup.getString("notApplied[0].detail")).contains("not a Kubernetes namespace name");

        // Speech's viewers still see it; research's do not, and research's operators cannot act on it.
        String speechViewer = TestTokens.create("speech-viewer-" + tag, Role.VIEWER, List.of(speech));
        given(TestTokens.auth(speechViewer))
                .get("/api/v1/jobs/" + job)
                .then()
                .statusCode(200)
                .body("summary.namespace", equalTo(speech));
        String researchViewer = TestTokens.create("research-viewer-" + tag, Role.VIEWER, List.of(research));
        given(TestTokens.auth(researchViewer)).get("/api/v1/jobs/" + job).then().statusCode(404);
        assertThat(given(TestTokens.asViewer())
                        .queryParam("namespace", research)
                        .get("/api/v1/jobs")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .isEmpty();
    }

    @Test
    void aRendezvousNamingAnotherTeamsNodesDoesNotShowThemToTheNamespace() {
        String speech = "speech-" + tag;
        String other = "vision-" + tag;
        String job = speech + "/whisper";
        String theirJob = other + "/vit";
        String ours = "speech-node-" + tag;
        List<String> theirs = List.of("vision-node-1-" + tag, "vision-node-2-" + tag, "vision-node-3-" + tag);
        String fleet = TestTokens.ingest();
        for (String n : List.of(ours, theirs.get(0), theirs.get(1), theirs.get(2))) {
            post(fleet, CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n, now.minusSeconds(300)));
        }
        post(fleet, submitted(theirJob, other, now.minusSeconds(200), ""));
        post(fleet, rendezvous(theirJob, now.minusSeconds(190), theirs.toArray(String[]::new)));
        String speechIngest = TestTokens.create("speech-agent-" + tag, Role.INGEST, List.of(speech));
        post(speechIngest, submitted(job, speech, now.minusSeconds(100), ""));
        // The torchelastic connector's fleet-wide token places the job where it runs.
        assertThat(post(fleet, rendezvous(job, now.minusSeconds(90), ours)).getInt("applied"))
                .isEqualTo(1);

        // The namespace's own token names the other team's nodes: refused, with the reason.
        given(TestTokens.auth(speechIngest))
                .contentType("application/cloudevents+json")
                .body(rendezvous(job, now, ours, theirs.get(0), theirs.get(1), theirs.get(2)))
                .post("/api/v1/events")
                .then()
                .statusCode(403)
                .body("errors[0].reason", containsString("may place a job only on nodes"));

        String speechViewer = TestTokens.create("speech-viewer-" + tag, Role.VIEWER, List.of(speech));
        List<String> visible = given(TestTokens.auth(speechViewer))
                .queryParam("limit", 1000)
                .get("/api/v1/nodes")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.name");
        assertThat(visible).contains(ours).doesNotContainAnyElementsOf(theirs);
        for (String n : theirs) {
            given(TestTokens.auth(speechViewer))
                    .get("/api/v1/nodes/" + n)
                    .then()
                    .statusCode(404);
        }
        given(TestTokens.auth(speechViewer))
                .get("/api/v1/jobs/" + job + "/membership")
                .then()
                .statusCode(200)
                .body("current.participants.node", org.hamcrest.Matchers.contains(ours));
    }

    @Test
    void slackGetsTheJobsOwnNamespaceNotTheMarkupASenderPutInItsSubmission() throws Exception {
        List<String> messages = new CopyOnWriteArrayList<>();
        HttpServer slack = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slack.createContext("/services/T0/B0/x", x -> {
            try (InputStream in = x.getRequestBody()) {
                messages.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        slack.start();
        String name = "slack-" + tag;
        receivers.register(new Receiver(
                name,
                ReceiverKind.SLACK,
                URI.create("http://127.0.0.1:" + slack.getAddress().getPort() + "/services/T0/B0/x"),
                null));
        String ns = "alerts-slack";
        String job = ns + "/asr-" + tag;
        String token = TestTokens.create("alerts-slack-" + tag, Role.INGEST, List.of(ns));
        try {
            Instant t = now.minusSeconds(120);
            post(token, submitted(job, ns, t, ",\"checkpointIntervalSeconds\":1"));
            // The probe's payload: the namespace field as Slack markup, then as another team's namespace.
            post(token, submitted(job, "<!channel>", t.plusSeconds(1), ",\"checkpointIntervalSeconds\":1"));
            post(token, submitted(job, "other-team", t.plusSeconds(2), ",\"checkpointIntervalSeconds\":1"));
            post(token, rendezvousByFleet(job, t.plusSeconds(3)));
            post(
                    token,
                    CloudEvents.event(
                            CloudEvents.uniqueId(),
                            "trainer/" + job,
                            "trainer.checkpoint.completed",
                            job,
                            t.plusSeconds(10),
                            "{\"checkpointId\":\"ck-1\",\"step\":10}"));
            post(
                    token,
                    CloudEvents.event(
                            CloudEvents.uniqueId(),
                            "trainer/" + job,
                            "trainer.progress",
                            job,
                            t.plusSeconds(60),
                            "{\"step\":50}"));
            String text = await().atMost(Duration.ofSeconds(40))
                    .until(
                            () -> messages.stream()
                                    .map(PayloadScopeTest::text)
                                    .filter(m -> m.contains(job))
                                    .findFirst()
                                    .orElse(null),
                            m -> m != null);
            assertThat(text)
                    .contains("(" + ns + ")")
                    .doesNotContain("<!channel>")
                    .doesNotContain("other-team");
        } finally {
            receivers.remove(name);
            slack.stop(0);
        }
    }

    /** The job's ranks as a fleet-wide sender (the torchelastic connector) reports them. */
    private String rendezvousByFleet(String job, Instant at) {
        String node = "slack-node-" + tag;
        post(TestTokens.ingest(), rendezvous(job, at, node));
        return CloudEvents.event(
                CloudEvents.uniqueId(), "trainer/" + job, "trainer.progress", job, at.plusSeconds(1), "{\"step\":1}");
    }

    private static String text(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n.path("text").asText();
        } catch (Exception e) {
            return "";
        }
    }
}
