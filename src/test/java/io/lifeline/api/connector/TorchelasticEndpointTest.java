package io.lifeline.api.connector;

import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.testing.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The torchelastic fixture (a failed c10d worker and its agent's end, restarts=3) posted to the endpoint. */
@QuarkusTest
class TorchelasticEndpointTest {

    private static final String FIXTURE = "torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl";

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }

    @Test
    void theFixtureLinesBecomeARestartAndAWorkerFailureOfTheMappedJob() {
        String job = "team-te/" + unique("elastic");
        // The job as the scheduler and its first rendezvous described it, before the agent's lines arrive: the
        // fixture's run had world size 2, rank 1 on ip-172-30-2-79 (TestFleet gives each node 8 ranks).
        new io.lifeline.testing.TestFleet()
                .node("ip-172-30-2-79", "pool-te")
                .node("ip-172-30-2-80", "pool-te")
                .job(job, 1, 2, "ip-172-30-2-80", "ip-172-30-2-79");
        JsonPath r = api().contentType("application/x-ndjson")
                .queryParam("job", job)
                .body(Fixtures.bytes(FIXTURE))
                .post("/api/v1/connectors/torchelastic")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        // Both lines repeat agent_restarts=3: one trainer.restarted, the repeat is a duplicate.
        assertThat(r.getInt("accepted")).isEqualTo(2);
        assertThat(r.getInt("duplicates")).isEqualTo(1);

        List<Map<String, Object>> restarted = stored(job, "trainer.restarted");
        assertThat(restarted).hasSize(1);
        assertThat(data(restarted.get(0))).containsEntry("runId", "1234").containsEntry("restartCount", 3);
        List<Map<String, Object>> failed = stored(job, "trainer.worker_failed");
        assertThat(failed).hasSize(1);
        assertThat(data(failed.get(0))).containsEntry("rank", 1).containsEntry("node", "ip-172-30-2-79");
        assertThat(failed.get(0).get("source")).isEqualTo("torchelastic/" + job);

        // What Lifeline makes of it, through the read API: the agent's own restart count, one restart seen, the
        // job recovering, and an incident on the failed worker's node.
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .untilAsserted(() -> {
                    JsonPath detail = api().get("/api/v1/jobs/" + job)
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath();
                    assertThat(detail.getInt("agentRestarts")).isEqualTo(3);
                    assertThat(detail.getInt("summary.restarts")).isEqualTo(1);
                    assertThat(detail.getString("summary.state")).isEqualTo("recovering");
                });
        List<List<String>> incidentNodes = api().get("/api/v1/jobs/" + job + "/incidents")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("nodes");
        assertThat(incidentNodes).singleElement().asList().contains("ip-172-30-2-79");
    }

    @Test
    void oneLineAloneIsAccepted() {
        String job = "team-te/" + unique("one-line");
        String first = Fixtures.text(FIXTURE).lines().findFirst().orElseThrow();
        api().contentType("application/json")
                .queryParam("job", job)
                .queryParam("procsPerNode", 2)
                .body(first)
                .post("/api/v1/connectors/torchelastic")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(2));
        assertThat(stored(job, null)).hasSize(2);
    }

    @Test
    void withoutAJobMappingEveryLineIsRejectedWithItsLineNumber() {
        api().contentType("application/x-ndjson")
                .body(Fixtures.bytes(FIXTURE))
                .post("/api/v1/connectors/torchelastic")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.reason", equalTo(List.of("unknown_job", "unknown_job")))
                .body("errors.index", equalTo(List.of(0, 1)));
    }

    @Test
    void aBadLineIsReportedAndTheOthersAreTaken() {
        String job = "team-te/" + unique("mixed");
        List<String> lines = Fixtures.text(FIXTURE).lines().toList();
        String body = lines.get(0) + "\n{\"truncated\": \n" + lines.get(1) + "\n";
        JsonPath r = api().contentType("application/x-ndjson")
                .queryParam("job", job)
                .body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/connectors/torchelastic")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getInt("rejected")).isEqualTo(1);
        assertThat(r.getInt("errors[0].index")).isEqualTo(1);
        assertThat(r.getString("errors[0].reason")).isEqualTo("malformed_json");
        assertThat(stored(job, "trainer.worker_failed")).hasSize(1);
    }

    @Test
    void anInvalidJobParameterIsABadRequest() {
        api().contentType("application/x-ndjson")
                .queryParam("job", "no-namespace")
                .body(Fixtures.bytes(FIXTURE))
                .post("/api/v1/connectors/torchelastic")
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
    }
}
