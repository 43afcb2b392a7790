package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A job whose rank 0 runs on a spot node of a pool that also has an on-demand node: the job detail flags it, the
 * spot report carries the advice and the verdict at the configured prices, and the coordinator-on-spot rule goes
 * pending; a round that puts rank 0 on the on-demand node clears the flag.
 */
@QuarkusTest
class JobsResourceSpotTest {

    private static final String POOL = "spot-rest";

    private static String node(String name, String capacity, Instant t) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.registered",
                name,
                t,
                "{\"pool\":\"" + POOL
                        + "\",\"capacityType\":\"" + capacity
                        + "\",\"zone\":\"us-east-1a\",\"instanceType\":\"p5.48xlarge\","
                        + "\"gpuCount\":8}");
    }

    private static String rendezvous(String job, Instant t, int round, String first, String second) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/trainer",
                "trainer.rendezvous",
                job,
                t,
                "{\"runId\":\"run\",\"round\":" + round + ",\"worldSize\":16,\"participants\":[{\"node\":\"" + first
                        + "\",\"firstRank\":0,\"rankCount\":8},{\"node\":\"" + second
                        + "\",\"firstRank\":8,\"rankCount\":8}]}");
    }

    private static String progress(String job, Instant t, long step) {
        return CloudEvents.event(
                CloudEvents.uniqueId(), "test/trainer", "trainer.progress", job, t, "{\"step\":" + step + "}");
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

    @Test
    void rankZeroOnASpotNodeIsFlaggedOnTheDetailTheReportAndByAnAlert() {
        Instant t0 = Instant.now().minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MILLIS);
        String job = "spotrest/llm";
        post(List.of(
                node("spot-rest-s1", "spot", t0),
                node("spot-rest-s2", "spot", t0),
                node("spot-rest-d1", "on-demand", t0),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/k8s",
                        "job.submitted",
                        job,
                        t0,
                        "{\"namespace\":\"spotrest\",\"elastic\":{\"minNodes\":1,\"maxNodes\":3,\"procsPerNode\":8,"
                                + "\"maxRestarts\":10},\"gpusPerNode\":8,\"checkpointIntervalSeconds\":1800}"),
                rendezvous(job, t0.plusSeconds(10), 1, "spot-rest-s1", "spot-rest-s2"),
                progress(job, t0.plusSeconds(20), 1)));

        JsonPath detail = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get("/api/v1/jobs/spotrest/llm"), d -> d.getBoolean("placement.flagged"));
        assertThat(detail.getString("placement.coordinators[0].node")).isEqualTo("spot-rest-s1");
        assertThat(detail.getList("placement.coordinators[0].roles")).containsExactly("rank-0", "rendezvous-endpoint");
        assertThat(detail.getString("placement.coordinators[0].capacityType")).isEqualTo("spot");
        assertThat(detail.getList("placement.onDemandPools")).containsExactly(POOL);
        assertThat(detail.getString("placement.warning"))
                .contains("rank 0 and the rendezvous endpoint run on spot node " + "spot-rest-s1");

        JsonPath spot = get("/api/v1/jobs/spotrest/llm/spot");
        assertThat(spot.getString("job")).isEqualTo(job);
        assertThat(spot.getBoolean("placement.flagged")).isTrue();
        assertThat(spot.getList("intervals.capacityType")).containsExactly("spot", "on-demand");
        assertThat(spot.getString("verdict.pool")).isEqualTo(POOL);
        assertThat(spot.getDouble("verdict.spot.pricePerGpuHour")).isEqualTo(2.0);
        assertThat(spot.getDouble("verdict.onDemand.pricePerGpuHour")).isEqualTo(3.0);
        assertThat(spot.getString("verdict.formula"))
                .startsWith("cost per useful GPU-hour = price per GPU-hour / ETTR");
        assertThat(spot.getString("verdict.cheaper")).isIn("spot", "on-demand", "equal", "unknown");

        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(given(TestTokens.asAdmin())
                                .queryParam("rule", "coordinator-on-spot")
                                .queryParam("namespace", "spotrest")
                                .get("/api/v1/alerts")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("alerts.labels.job"))
                        .contains(job));

        post(List.of(
                rendezvous(job, t0.plusSeconds(600), 2, "spot-rest-d1", "spot-rest-s2"),
                progress(job, t0.plusSeconds(610), 2)));
        JsonPath moved = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get("/api/v1/jobs/spotrest/llm"), d -> !d.getBoolean("placement.flagged"));
        assertThat(moved.getString("placement.coordinators[0].node")).isEqualTo("spot-rest-d1");
        assertThat(moved.getString("placement.warning")).isNull();
    }

    @Test
    void anUnknownJobHasNoSpotReport() {
        given(TestTokens.asAdmin())
                .get("/api/v1/jobs/spotrest/nope/spot")
                .then()
                .statusCode(404);
    }
}
