package io.lifeline.security;

import static io.lifeline.testing.TestTokens.api;
import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A token limited to namespaces writes only its own jobs' events and silences. */
@QuarkusTest
class WriteScopeTest {

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static String unique(String prefix) {
        return prefix + "-" + CloudEvents.uniqueId().substring(0, 8);
    }

    private static String jobSubmitted(String id, String job, Instant at) {
        String ns = job.substring(0, job.indexOf('/'));
        return CloudEvents.event(
                id,
                "test/scheduler",
                "job.submitted",
                job,
                at,
                "{\"namespace\":\"" + ns + "\",\"owner\":\"t\","
                        + "\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,\"maxRestarts\":10},\"gpusPerNode\":8,"
                        + "\"checkpointIntervalSeconds\":1800}");
    }

    private static String progress(String id, String job, Instant at) {
        return CloudEvents.event(
                id, "test/trainer", "trainer.progress", job, at, "{\"step\":10,\"samplesPerSecond\":100.0}");
    }

    private static String notice(String id, String node, Instant at) {
        return CloudEvents.event(
                id,
                "aws/eventbridge/us-east-1",
                "node.interruption_notice",
                node,
                at,
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\",\"deadline\":\"" + at.plusSeconds(120) + "\"}");
    }

    private static List<String> storedIds(String subject) {
        return api().queryParam("subject", subject)
                .queryParam("limit", 1000)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("events.id", String.class);
    }

    private static void registerNode(String node, String providerId, Instant at) {
        String data =
                "{\"pool\":\"spot-a\",\"capacityType\":\"spot\",\"gpuCount\":8,\"providerId\":\"" + providerId + "\"}";
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(CloudEvents.uniqueId(), "test/registrar", "node.registered", node, at, data))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    @Test
    void scopedIngestTokenPostingANodeNoticeGets403AndTheNodeDoesNotChange() {
        String node = unique("scope-node");
        registerNode(node, "aws:///us-east-1a/" + unique("i"), now.minusSeconds(60));
        String teamA = TestTokens.create("team-a-ingest", Role.INGEST, List.of("team-a"));
        String id = CloudEvents.uniqueId();
        given(auth(teamA))
                .contentType("application/cloudevents+json")
                .body(notice(id, node, now))
                .post("/api/v1/events")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/forbidden"))
                .body("detail", containsString("fleet-wide ingest token"))
                .body("errors[0].id", equalTo(id));
        // Nothing of it stored or applied: the log has only the registration, the node shows no notice.
        assertThat(storedIds(node)).doesNotContain(id).hasSize(1);
        JsonPath n = api().get("/api/v1/nodes/" + node)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(n.getString("notice")).isNull();
        assertThat(n.getBoolean("noticeActive")).isFalse();
        // A scoped operator token is no different; the fleet-wide ingest token may send it.
        String teamAOps = TestTokens.create("team-a-ops", Role.OPERATOR, List.of("team-a"));
        given(auth(teamAOps))
                .contentType("application/cloudevents+json")
                .body(notice(CloudEvents.uniqueId(), node, now))
                .post("/api/v1/events")
                .then()
                .statusCode(403);
        given(auth(TestTokens.ingest()))
                .contentType("application/cloudevents+json")
                .body(notice(id, node, now))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        assertThat(storedIds(node)).contains(id);
    }

    @Test
    void aBatchKeepsTheTokensOwnJobEventsAndRefusesTheRestOneByOne() {
        String teamA = TestTokens.create("team-a-trainer", Role.INGEST, List.of("team-a"));
        String own = "team-a/" + unique("job");
        String other = "team-b/" + unique("job");
        String node = unique("scope-node");
        String ownSubmitted = CloudEvents.uniqueId();
        String ownProgress = CloudEvents.uniqueId();
        String otherSubmitted = CloudEvents.uniqueId();
        String gpu = CloudEvents.uniqueId();
        String batch = CloudEvents.array(List.of(
                jobSubmitted(ownSubmitted, own, now.minusSeconds(10)),
                jobSubmitted(otherSubmitted, other, now.minusSeconds(10)),
                CloudEvents.gpuSample(gpu, node, now, 50),
                progress(ownProgress, own, now)));
        JsonPath r = given(auth(teamA))
                .contentType("application/cloudevents-batch+json")
                .body(batch)
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getInt("accepted")).isEqualTo(2);
        assertThat(r.getInt("rejected")).isEqualTo(2);
        assertThat(r.getList("errors.index", Integer.class)).containsExactly(1, 2);
        assertThat(r.getList("errors.id", String.class)).containsExactly(otherSubmitted, gpu);
        assertThat(r.getString("errors[0].reason")).contains("not in this token's namespaces [team-a]");
        assertThat(r.getString("errors[1].reason")).contains("gpu.sample");
        assertThat(storedIds(own)).contains(ownSubmitted);
        assertThat(storedIds(other)).isEmpty();
        api().get("/api/v1/jobs/" + other).then().statusCode(404);
    }

    @Test
    void cloudNoticeAndGpuEndpointsNeedAFleetWideToken() {
        String teamA = TestTokens.create("team-a-agent", Role.INGEST, List.of("team-a"));
        String instance = unique("i-scope");
        String node = unique("scope-imds");
        registerNode(node, "aws:///us-east-1a/" + instance, Instant.EPOCH);
        given(auth(teamA))
                .contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"))
                .post("/api/v1/connectors/aws/imds/" + instance + "/spot-instance-action")
                .then()
                .statusCode(403)
                .body("detail", containsString("fleet-wide ingest token"));
        given(auth(teamA))
                .contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/nth_example_spot-itn-event.json"))
                .post("/api/v1/connectors/aws/eventbridge")
                .then()
                .statusCode(403);
        given(auth(teamA))
                .contentType("text/plain")
                .body("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-x\"} 50\n")
                .post("/api/v1/connectors/dcgm/" + node)
                .then()
                .statusCode(403);
        assertThat(storedIds(node)).hasSize(1);
        assertThat(api().get("/api/v1/nodes/" + node)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("notice"))
                .isNull();
    }

    private static String silence(String matchers) {
        return "{\"matchers\":" + matchers + ",\"duration\":\"PT1H\",\"comment\":\"scope test\"}";
    }

    @Test
    void scopedOperatorsCreateSeeAndExpireOnlyTheirNamespacesSilences() {
        String teamA = TestTokens.create("team-a-oncall", Role.OPERATOR, List.of("team-a"));
        String mine = given(auth(teamA))
                .contentType("application/json")
                .body(silence("[{\"name\":\"namespace\",\"value\":\"team-a\"},{\"name\":\"rule\",\"value\":\"x\"}]"))
                .post("/api/v1/silences")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("id");
        for (String matchers : List.of(
                "[{\"name\":\"job\",\"value\":\"team-b/x\"}]",
                "[{\"name\":\"namespace\",\"value\":\"team-b\"}]",
                "[{\"name\":\"namespace\",\"value\":\"team-.*\",\"type\":\"=~\"}]",
                "[{\"name\":\"namespace\",\"value\":\"team-b\",\"type\":\"!=\"},{\"name\":\"job\",\"value\":\"x\"}]")) {
            given(auth(teamA))
                    .contentType("application/json")
                    .body(silence(matchers))
                    .post("/api/v1/silences")
                    .then()
                    .statusCode(403)
                    .body("detail", containsString("namespace="));
        }
        String theirs = given(TestTokens.asOperator())
                .contentType("application/json")
                .body(silence("[{\"name\":\"namespace\",\"value\":\"team-b\"}]"))
                .post("/api/v1/silences")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("id");

        List<String> seen = given(auth(teamA))
                .get("/api/v1/silences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("silences.id", String.class);
        assertThat(seen).contains(mine).doesNotContain(theirs);
        given(auth(teamA)).get("/api/v1/silences/" + theirs).then().statusCode(404);
        given(auth(teamA)).delete("/api/v1/silences/" + theirs).then().statusCode(404);
        List<Map<String, Object>> all = given(TestTokens.asOperator())
                .get("/api/v1/silences")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("silences");
        assertThat(all).extracting(s -> s.get("id")).contains(mine, theirs);
        given(TestTokens.asOperator())
                .get("/api/v1/silences/" + theirs)
                .then()
                .statusCode(200)
                .body("status", equalTo("active"));
        given(auth(teamA))
                .delete("/api/v1/silences/" + mine)
                .then()
                .statusCode(200)
                .body("status", equalTo("expired"));
        given(TestTokens.asOperator())
                .delete("/api/v1/silences/" + theirs)
                .then()
                .statusCode(200);
    }
}
