package io.lifeline.api.control;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Checkpoint trust end to end: the trainers' losses judge their checkpoints, the lineage shows trusted and suspect
 * with the reason, a restore without a checkpoint takes the newest trusted one, an operator's mark changes the verdict
 * (audited, operator role, the job's namespace), and a loss that is neither a number nor one of the three words is
 * refused with the reason.
 */
@QuarkusTest
class CheckpointTrustResourceTest {

    private static final Instant T0 = Instant.parse("2026-03-05T08:00:00Z");

    private static String event(String type, String job, Instant at, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), "test/trainer", type, job, at, data);
    }

    /** A job whose loss hovers at 1.0, saves ckpt-a, goes to NaN and saves ckpt-b, then fails a save for space. */
    private static String jobWithANan(String name) {
        String ns = "trust-" + name;
        String job = ns + "/train";
        List<String> events = new ArrayList<>();
        events.add(event(
                "job.submitted",
                job,
                T0,
                "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":1,"
                        + "\"maxRestarts\":3},\"gpusPerNode\":0}"));
        for (int i = 1; i <= 6; i++) {
            events.add(event("trainer.progress", job, T0.plusSeconds(i), "{\"step\":" + i * 10 + ",\"loss\":1.0}"));
        }
        events.add(event(
                "trainer.checkpoint.started",
                job,
                T0.plusSeconds(10),
                "{\"checkpointId\":\"ckpt-a\",\"step\":60," + "\"loss\":1.5}"));
        events.add(event(
                "trainer.checkpoint.completed",
                job,
                T0.plusSeconds(11),
                "{\"checkpointId\":\"ckpt-a\",\"step\":60,\"durationSeconds\":1.0,\"blockingSeconds\":1.0}"));
        events.add(event("trainer.progress", job, T0.plusSeconds(20), "{\"step\":70,\"loss\":\"nan\"}"));
        events.add(event(
                "trainer.checkpoint.started",
                job,
                T0.plusSeconds(30),
                "{\"checkpointId\":\"ckpt-b\",\"step\":80,\"loss\":\"nan\"}"));
        events.add(event(
                "trainer.checkpoint.completed",
                job,
                T0.plusSeconds(31),
                "{\"checkpointId\":\"ckpt-b\",\"step\":80,\"durationSeconds\":1.0,\"blockingSeconds\":1.0}"));
        events.add(event(
                "trainer.checkpoint.started",
                job,
                T0.plusSeconds(40),
                "{\"checkpointId\":\"ckpt-c\",\"step\":90,\"loss\":25.0}"));
        events.add(event(
                "trainer.checkpoint.completed",
                job,
                T0.plusSeconds(41),
                "{\"checkpointId\":\"ckpt-c\",\"step\":90,\"durationSeconds\":1.0,\"blockingSeconds\":1.0}"));
        events.add(event(
                "trainer.checkpoint.failed",
                job,
                T0.plusSeconds(50),
                "{\"checkpointId\":\"ckpt-d\",\"step\":100,\"error\":\"NoSpaceError: not enough space\","
                        + "\"reason\":\"no_space\",\"freeBytes\":1000,\"neededBytes\":1250}"));
        JsonPath r = TestTokens.api()
                .contentType(ContentType.JSON)
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getList("errors")).as(r.prettify()).isNull();
        return job;
    }

    private static Map<String, Object> checkpoint(String job, String id) {
        List<Map<String, Object>> all = TestTokens.api()
                .get("/api/v1/jobs/" + job + "/checkpoints")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("checkpoints");
        return all.stream().filter(c -> id.equals(c.get("id"))).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> trust(Map<String, Object> c) {
        return (Map<String, Object>) c.get("trust");
    }

    @Test
    void theLineageShowsTrustedAndSuspectWithTheReason() {
        String job = jobWithANan("lineage");
        Map<String, Object> a = trust(checkpoint(job, "ckpt-a"));
        assertThat(a.get("trusted")).isEqualTo(true);
        assertThat(a.get("loss")).isEqualTo("1.5");
        Map<String, Object> b = trust(checkpoint(job, "ckpt-b"));
        assertThat(b.get("trusted")).isEqualTo(false);
        assertThat(b.get("reason")).isEqualTo("non_finite_loss");
        assertThat(b.get("loss")).isEqualTo("nan");
        // Median of the window: 1.0 (six reports of 1.0; the NaN does not enter it); 25 > 10 × 1.0.
        Map<String, Object> c = trust(checkpoint(job, "ckpt-c"));
        assertThat(c.get("reason")).isEqualTo("loss_spike");
        assertThat((String) c.get("detail")).contains("25.0").contains("median 1.0");
        Map<String, Object> d = checkpoint(job, "ckpt-d");
        assertThat(d.get("status")).isEqualTo("failed");
        assertThat(d.get("trust")).isNull();
        assertThat((String) d.get("error"))
                .contains("no_space")
                .contains("1000 bytes free")
                .contains("1250 needed");
    }

    @Test
    void aRestoreWithoutACheckpointTakesTheNewestTrustedOneAndASuspectOneOnlyWhenAllowed() {
        String job = jobWithANan("restore");
        String id = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"restore\",\"target\":\"" + job + "\",\"reason\":\"after the nan\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("params.checkpointId");
        assertThat(id).isEqualTo("ckpt-a");
        String refused = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"restore\",\"target\":\"" + job + "\",\"params\":{\"checkpointId\":\"ckpt-b\"}}")
                .post("/api/v1/actions")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertThat(refused).contains("suspect").contains("non_finite_loss").contains("allowSuspect");
        // Another job of the same history: the first restore holds this job's action lock while it waits.
        String other = jobWithANan("restore-allowed");
        String allowed = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"restore\",\"target\":\"" + other + "\",\"params\":{\"allowSuspect\":\"true\"}}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("params.checkpointId");
        assertThat(allowed).isEqualTo("ckpt-c");
    }

    @Test
    void anOperatorMarksACheckpointAndTheMarkIsAudited() {
        String job = jobWithANan("mark");
        String path = "/api/v1/jobs/" + job + "/checkpoints/ckpt-b/trust";
        String body = "{\"trusted\":true,\"reason\":\"the NaN was a logging bug\"}";
        given(TestTokens.asViewer())
                .contentType(ContentType.JSON)
                .body(body)
                .post(path)
                .then()
                .statusCode(403);
        JsonPath marked = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(body)
                .post(path)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(marked.getBoolean("trust.trusted")).isTrue();
        assertThat(marked.getString("trust.detail")).isEqualTo("the NaN was a logging bug");
        assertThat(marked.getString("trust.markedBy")).isNotBlank();
        assertThat(trust(checkpoint(job, "ckpt-b")).get("trusted")).isEqualTo(true);

        given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"trusted\":false,\"reason\":\"bad data shard\"}")
                .post("/api/v1/jobs/" + job + "/checkpoints/ckpt-a/trust")
                .then()
                .statusCode(200);
        Map<String, Object> a = trust(checkpoint(job, "ckpt-a"));
        assertThat(a.get("trusted")).isEqualTo(false);
        assertThat(a.get("reason")).isEqualTo("marked");

        List<Map<String, Object>> audit = given(TestTokens.asAdmin())
                .queryParam("what", "checkpoint.trust_marked")
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(audit).anySatisfy(e -> {
            assertThat(e.get("target")).isEqualTo("checkpoint:" + job + "/ckpt-b");
            assertThat(e.get("reason")).isEqualTo("the NaN was a logging bug");
            assertThat((String) e.get("before")).startsWith("suspect (non_finite_loss");
            assertThat(e.get("after")).isEqualTo("trusted");
        });
    }

    @Test
    void marksAreRefusedOutsideTheNamespaceForUnknownCheckpointsAndWithoutAReason() {
        String job = jobWithANan("scope");
        String other = TestTokens.create("trust-other", Role.OPERATOR, List.of("somewhere-else"));
        given(TestTokens.auth(other))
                .contentType(ContentType.JSON)
                .body("{\"trusted\":true,\"reason\":\"x\"}")
                .post("/api/v1/jobs/" + job + "/checkpoints/ckpt-b/trust")
                .then()
                .statusCode(404);
        given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"trusted\":true,\"reason\":\"x\"}")
                .post("/api/v1/jobs/" + job + "/checkpoints/nothing/trust")
                .then()
                .statusCode(404);
        given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"trusted\":true}")
                .post("/api/v1/jobs/" + job + "/checkpoints/ckpt-b/trust")
                .then()
                .statusCode(400);
        given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"trusted\":true,\"reason\":\"x\"}")
                .post("/api/v1/jobs/" + job + "/checkpoints/ckpt-d/trust")
                .then()
                .statusCode(409);
    }

    @Test
    void aLossThatIsNeitherANumberNorNanInfIsRefusedWithTheReason() {
        JsonPath r = TestTokens.api()
                .contentType(ContentType.JSON)
                .body(CloudEvents.array(List.of(
                        event("trainer.progress", "trust-junk/train", T0, "{\"step\":1,\"loss\":\"NaN!\"}"),
                        event("trainer.progress", "trust-junk/train", T0, "{\"step\":2,\"loss\":\"-inf\"}"))))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getString("errors[0].reason"))
                .contains("data.loss")
                .contains("\"nan\", \"inf\" or \"-inf\"")
                .contains("NaN!");
    }
}
