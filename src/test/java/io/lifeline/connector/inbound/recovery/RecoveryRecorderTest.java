package io.lifeline.connector.inbound.recovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The recovery ladder through the application: a job that fails with the same error on every rank at the same step
 * three times in a row (sent as a trainer would, through the ingest API) gets, from the leader's recorder, advice to
 * stop recorded in the event log under Lifeline's own source, readable from the recovery and attempts endpoints; the
 * policy then requests the job's preemption, seen in the actions. A producer cannot write advice itself.
 */
@QuarkusTest
class RecoveryRecorderTest {

    private static final String POLICY = "recovery-ladder";
    private static final String NS = "recoveryapi";
    private static final String ERROR = "RuntimeError: loss is nan at step 120";

    @Inject
    RecoveryRecorder recorder;

    private static String event(String type, String job, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), "agent/" + job, type, job, t, data);
    }

    private static JsonPath post(List<String> events) {
        return TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .extract()
                .jsonPath();
    }

    private static JsonPath get(String path) {
        return given(TestTokens.asAdmin())
                .get(path)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static void policy(String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + POLICY)
                .then()
                .statusCode(200);
    }

    @AfterEach
    void off() {
        policy("off", Map.of());
    }

    private static void failAllRanks(List<String> events, String job, Instant at) {
        for (int rank = 0; rank < 2; rank++) {
            events.add(event(
                    "trainer.worker_failed",
                    job,
                    at,
                    "{\"rank\":" + rank + ",\"node\":\"rec-node-1\",\"exitCode\":1,\"error\":\"" + ERROR + "\"}"));
        }
    }

    @Test
    void threeIdenticalFailuresAreAdvisedAStopRecordedBeforeThePreemptionIsRequested() {
        policy("off", Map.of("namespace:" + NS, "on"));
        String job = NS + "/llm";
        Instant t0 = Instant.now().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MILLIS);
        List<String> events = new ArrayList<>(List.of(
                event(
                        "job.submitted",
                        job,
                        t0,
                        "{\"namespace\":\"" + NS + "\",\"gpusPerNode\":2,"
                                + "\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":2,\"maxRestarts\":8}}"),
                event(
                        "trainer.rendezvous",
                        job,
                        t0,
                        "{\"round\":1,\"worldSize\":2,\"participants\":"
                                + "[{\"node\":\"rec-node-1\",\"firstRank\":0,\"rankCount\":2}]}"),
                event("trainer.progress", job, t0.plusSeconds(1), "{\"step\":1}"),
                event(
                        "trainer.checkpoint.started",
                        job,
                        t0.plusSeconds(20),
                        "{\"checkpointId\":\"c100\",\"step\":100}"),
                event(
                        "trainer.checkpoint.completed",
                        job,
                        t0.plusSeconds(25),
                        "{\"checkpointId\":\"c100\",\"step\":100,\"durationSeconds\":5,\"blockingSeconds\":5}"),
                event("trainer.progress", job, t0.plusSeconds(30), "{\"step\":120}")));
        failAllRanks(events, job, t0.plusSeconds(31));
        for (int attempt = 1; attempt < 3; attempt++) {
            Instant t = t0.plusSeconds(60L * attempt);
            events.add(event(
                    "trainer.restarted", job, t, "{\"restartCount\":" + attempt + ",\"reason\":\"worker failed\"}"));
            events.add(event("trainer.restored", job, t.plusSeconds(5), "{\"checkpointId\":\"c100\",\"step\":100}"));
            events.add(event("trainer.progress", job, t.plusSeconds(10), "{\"step\":101}"));
            events.add(event("trainer.progress", job, t.plusSeconds(30), "{\"step\":120}"));
            failAllRanks(events, job, t.plusSeconds(31));
        }
        JsonPath accepted = post(events);
        assertThat(accepted.getInt("rejected")).isZero();

        recorder.record();

        JsonPath recovery = get("/api/v1/jobs/" + job + "/recovery");
        assertThat(recovery.getString("mode")).isEqualTo("on");
        assertThat(recovery.getString("rulesVersion")).isNotBlank();
        assertThat(recovery.getList("rules.id"))
                .containsExactly(
                        "workload-error",
                        "lost-node",
                        "failing-node",
                        "no-checkpoint-progress",
                        "failing-pods",
                        "transient");
        assertThat(recovery.getInt("budgets.failures")).isEqualTo(3);
        assertThat(recovery.getInt("budgets.failureBudget")).isEqualTo(8);
        assertThat(recovery.getString("current.remedy")).isEqualTo("stop-and-page");
        assertThat(recovery.getString("current.rule")).isEqualTo("workload-error");
        assertThat(recovery.getString("current.verdict")).isEqualTo("pending");
        assertThat(recovery.getList("current.evidence", String.class))
                .hasSize(3)
                .allSatisfy(e -> assertThat(e).contains("ended at step 120 with " + ERROR + " on ranks [0, 1]"));

        JsonPath attempts = get("/api/v1/jobs/" + job + "/attempts");
        assertThat(attempts.getList("number", Integer.class)).containsExactly(1, 2, 3);
        assertThat(attempts.getList("failures[2].errorType", String.class)).containsOnly("RuntimeError");
        assertThat(attempts.getList("endStep", Long.class)).containsOnly(120L);

        List<Map<String, Object>> stored = get("/api/v1/events?subject=" + job + "&type=job.recovery_advised")
                .getList("events");
        assertThat(stored)
                .singleElement()
                .satisfies(e -> assertThat(e.get("source")).isEqualTo("lifeline/recovery"));

        // Recorded first; then the policy runner, on its own round, requests what the advice says.
        await().atMost(Duration.ofSeconds(45))
                .untilAsserted(() -> assertThat(
                                get("/api/v1/actions?target=" + job).getList("items", Map.class))
                        .anySatisfy(a -> {
                            assertThat(a.get("kind")).isEqualTo("preempt");
                            assertThat(a.get("requestedBy")).isEqualTo("policy:" + POLICY);
                        }));
    }

    @Test
    void anElasticJobThatLostANodeIsAdvisedToShrinkToItsSurvivors() {
        policy("off", Map.of("namespace:" + NS, "on"));
        String job = NS + "/shrink";
        Instant t0 = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.MILLIS);
        List<String> events = new ArrayList<>();
        for (String node : List.of("rec-node-s1", "rec-node-s2", "rec-node-s3")) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "cloud/test",
                    "node.registered",
                    node,
                    t0,
                    "{\"pool\":\"rec-pool\",\"capacityType\":\"on-demand\",\"gpuCount\":2}"));
        }
        events.add(event(
                "job.submitted",
                job,
                t0,
                "{\"namespace\":\"" + NS + "\",\"gpusPerNode\":2,"
                        + "\"elastic\":{\"minNodes\":2,\"maxNodes\":3,\"procsPerNode\":2,\"maxRestarts\":8}}"));
        events.add(event(
                "trainer.rendezvous",
                job,
                t0.plusSeconds(1),
                "{\"round\":1,\"worldSize\":6,\"participants\":["
                        + "{\"node\":\"rec-node-s1\",\"firstRank\":0,\"rankCount\":2},"
                        + "{\"node\":\"rec-node-s2\",\"firstRank\":2,\"rankCount\":2},"
                        + "{\"node\":\"rec-node-s3\",\"firstRank\":4,\"rankCount\":2}]}"));
        events.add(event("trainer.progress", job, t0.plusSeconds(2), "{\"step\":1}"));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "cloud/test",
                "node.terminated",
                "rec-node-s3",
                t0.plusSeconds(30),
                "{\"reason\":\"instance gone\"}"));
        JsonPath accepted = post(events);
        assertThat(accepted.getInt("rejected")).as("%s", accepted.prettify()).isZero();

        recorder.record();

        JsonPath recovery = get("/api/v1/jobs/" + job + "/recovery");
        assertThat(recovery.getString("rulesVersion"))
                .as("%s", recovery.prettify())
                .isEqualTo("2");
        assertThat(recovery.getString("current.remedy"))
                .as("%s", recovery.prettify())
                .isEqualTo("shrink-to-survivors");
        assertThat(recovery.getString("current.rule")).isEqualTo("lost-node");
        assertThat(recovery.getString("current.node")).isEqualTo("rec-node-s3");
        assertThat(recovery.getList("current.evidence", String.class))
                .contains("the job is elastic (at least 2 nodes); the 2 left: [rec-node-s1, rec-node-s2]");
        assertThat(recovery.getString("current.expected"))
                .startsWith("the job rescaled to the nodes it has left, its group formed without node rec-node-s3");
    }

    @Test
    void aProducerCannotWriteAdviceItself() {
        String job = NS + "/forged";
        JsonPath answer = TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(
                        CloudEvents.array(
                                List.of(
                                        event("trainer.progress", job, Instant.now(), "{\"step\":1}"),
                                        event(
                                                "job.recovery_advised",
                                                job,
                                                Instant.now(),
                                                "{\"incident\":\"" + job
                                                        + "#1\",\"rung\":1,\"remedy\":\"stop-and-page\","
                                                        + "\"rule\":\"workload-error\",\"rulesVersion\":\"1\",\"evidence\":[],"
                                                        + "\"expected\":\"x\",\"deadline\":\"2030-01-01T00:00:00Z\",\"mode\":\"on\"}"))))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(answer.getInt("accepted")).isEqualTo(1);
        assertThat(answer.getString("errors[0].reason"))
                .isEqualTo("type job.recovery_advised is written by Lifeline itself and not accepted from producers");
        assertThat(get("/api/v1/jobs/" + job + "/recovery").getList("advice")).isEmpty();
    }
}
