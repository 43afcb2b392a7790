package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.AgentKeys;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job whose two ranks keep reporting heartbeats while neither steps: the detector on the leader writes a
 * {@code job.hang_suspected} into the log, the job gets a hang incident, the verdict and the detection metric say so;
 * an operator asks for stacks (a viewer may not), the agent's queue holds the request, the ranks' stacks come back
 * grouped with the rank outside the collective as the odd one out, and only callers of the job's namespace read them.
 */
@QuarkusTest
class HangApiTest {

    private static String event(String type, String job, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), "agent/" + job, type, job, t, data);
    }

    private static void post(List<String> events) {
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    private static JsonPath get(String path) {
        return given(TestTokens.asAdmin())
                .get(path)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static String stacks(String request, int rank, String inner, String innerFile) {
        return "{\"requestId\":\"" + request + "\",\"rank\":" + rank + ",\"localRank\":" + rank
                + ",\"node\":\"hang-node-1\",\"pid\":" + (100 + rank) + ",\"step\":40,\"phase\":\"training\","
                + "\"threads\":[{\"name\":\"MainThread\",\"main\":true,\"frames\":["
                + "{\"file\":\"train.py\",\"line\":80,\"function\":\"main\"},"
                + "{\"file\":\"" + innerFile + "\",\"line\":55,\"function\":\"" + inner + "\"}]}]}";
    }

    @Test
    void aJobAliveWithoutProgressIsDetectedAndItsStacksReadOnlyByItsNamespace() {
        String ns = "hangapi";
        String job = ns + "/llm";
        Instant t0 = Instant.now().minus(Duration.ofMinutes(2)).truncatedTo(ChronoUnit.MILLIS);
        List<String> events = new ArrayList<>(List.of(
                event(
                        "job.submitted",
                        job,
                        t0,
                        "{\"namespace\":\"" + ns + "\",\"gpusPerNode\":2,"
                                + "\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":2,\"maxRestarts\":3}}"),
                event(
                        "trainer.rendezvous",
                        job,
                        t0,
                        "{\"round\":1,\"worldSize\":2,\"participants\":"
                                + "[{\"node\":\"hang-node-1\",\"firstRank\":0,\"rankCount\":2}]}"),
                event("trainer.progress", job, t0.plusSeconds(1), "{\"step\":1}")));
        Instant lastStep = Instant.now().minusSeconds(8);
        for (int rank = 0; rank < 2; rank++) {
            // Steps of 0.2 s (a 2 s threshold here, the test's floor), then heartbeats without a step.
            events.add(
                    event(
                            "trainer.step_times",
                            job,
                            lastStep,
                            "{\"rank\":" + rank + ",\"localRank\":" + rank
                                    + ",\"node\":\"hang-node-1\",\"steps\":40,\"toStep\":40,\"medianSeconds\":0.15,"
                                    + "\"maxSeconds\":0.2,\"sinceStepSeconds\":0.01,\"phase\":\"training\",\"phaseSeconds\":100}"));
        }
        events.add(event("trainer.progress", job, lastStep, "{\"step\":40}"));
        Instant now = Instant.now();
        for (int rank = 0; rank < 2; rank++) {
            events.add(event(
                    "trainer.step_times",
                    job,
                    now,
                    "{\"rank\":" + rank + ",\"localRank\":" + rank
                            + ",\"node\":\"hang-node-1\",\"steps\":0,\"toStep\":40,\"sinceStepSeconds\":8,"
                            + "\"phase\":\"training\",\"phaseSeconds\":108}"));
        }
        post(events);

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(
                                get("/api/v1/jobs/" + job + "/incidents").getList("cause", String.class))
                        .anySatisfy(c -> assertThat(c).isEqualToIgnoringCase("hang")));
        JsonPath verdict = get("/api/v1/jobs/" + job + "/hang");
        assertThat(verdict.getString("state")).isEqualTo("suspected");
        assertThat(verdict.getString("kind")).isEqualTo("training");
        assertThat(verdict.getInt("ranksReporting")).isEqualTo(2);
        assertThat(verdict.getString("basis")).isEqualTo("4 x p99 step time 0.2 s = 0.8 s, raised to the floor 2 s");
        List<Map<String, Object>> stored = get("/api/v1/events?subject=" + job + "&type=job.hang_suspected")
                .getList("events");
        assertThat(stored)
                .singleElement()
                .satisfies(e -> assertThat(e.get("source")).isEqualTo("lifeline/hang-detector"));
        String metrics = given().header("Accept", "text/plain").get("/metrics").asString();
        assertThat(metrics).containsPattern("lifeline_hang_detections_total\\{kind=\"training\"[^}]*} [1-9]");

        // Stacks: an operator asks, a viewer may not; the agent's queue holds the request.
        given(TestTokens.asViewer())
                .post("/api/v1/jobs/" + job + "/stacks")
                .then()
                .statusCode(403);
        given(TestTokens.asOperator())
                .post("/api/v1/jobs/" + ns + "/nope/stacks")
                .then()
                .statusCode(404);
        String request = given(TestTokens.asOperator())
                .post("/api/v1/jobs/" + job + "/stacks")
                .then()
                .statusCode(202)
                .extract()
                .jsonPath()
                .getString("requestId");
        RequestSpecification agent = AgentKeys.as(TestTokens.ingest(), AgentKeys.fresh());
        JsonPath queued = given(agent)
                .queryParam("wait", 0)
                .get("/api/v1/agents/" + job + "/commands")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(queued.getList("type", String.class)).contains("lifeline.command.capture_stacks");
        assertThat(queued.getList("data.requestId", String.class)).contains(request);

        given(TestTokens.asAdmin())
                .get("/api/v1/jobs/" + job + "/stacks")
                .then()
                .statusCode(404);
        post(List.of(
                event(
                        "trainer.stacks",
                        job,
                        Instant.now(),
                        stacks(request, 0, "all_reduce", "torch/distributed/distributed_c10d.py")),
                event("trainer.stacks", job, Instant.now(), stacks(request, 1, "load_batch", "data.py"))));

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(get("/api/v1/jobs/" + job + "/stacks").getInt("ranksReported"))
                                .isEqualTo(2));
        JsonPath capture = get("/api/v1/jobs/" + job + "/stacks?request=" + request);
        assertThat(capture.getInt("ranksExpected")).isEqualTo(2);
        assertThat(capture.getList("groups.oddOneOut", Boolean.class)).containsExactlyInAnyOrder(true, false);
        int odd = capture.getList("groups.oddOneOut", Boolean.class).indexOf(true);
        assertThat(capture.getList("groups[" + odd + "].ranks", Integer.class)).containsExactly(1);
        assertThat(capture.getString("groups[" + odd + "].threads[0].frames[1].function"))
                .isEqualTo("load_batch");
        given(TestTokens.asAdmin())
                .get("/api/v1/jobs/" + job + "/stacks?request=nope")
                .then()
                .statusCode(404);
        assertThat(get("/api/v1/jobs/" + job + "/incidents")
                        .getList("phases.phase")
                        .toString())
                .contains("captured");

        // Stacks may name files and arguments: a caller of another namespace is told the job does not exist.
        String other = TestTokens.create("hang-other", Role.VIEWER, List.of("someone-else"));
        given(TestTokens.auth(other))
                .get("/api/v1/jobs/" + job + "/stacks")
                .then()
                .statusCode(404);
        given(TestTokens.auth(other))
                .get("/api/v1/jobs/" + job + "/hang")
                .then()
                .statusCode(404);
        String mine = TestTokens.create("hang-mine", Role.VIEWER, List.of(ns));
        given(TestTokens.auth(mine))
                .get("/api/v1/jobs/" + job + "/stacks")
                .then()
                .statusCode(200);
    }
}
