package io.lifeline.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.metrics.ModelMetrics;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The eviction → stop time of an incident through the application: a pod of a job is evicted after a spot notice
 * (a notice-driven drain) and its rank exits 12 s later; the incident's answer carries the time and
 * {@code lifeline_eviction_stop_seconds} observes it once, in its bucket.
 */
@QuarkusTest
class EvictionStopEndpointTest {

    @Inject
    ModelMetrics modelMetrics;

    private static final String SERIES = "request=\"pod_eviction\"";
    private static final String CAUSE = "cause=\"spot_reclaim\"";

    private static double sample(String metrics, String name, String le) {
        Pattern p = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
        Matcher m = p.matcher(metrics);
        double total = 0;
        while (m.find()) {
            String labels = m.group(1);
            if (labels.contains(SERIES)
                    && labels.contains(CAUSE)
                    && (le == null || labels.contains("le=\"" + le + "\""))) {
                total += Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    private String metrics() {
        try {
            modelMetrics.refresh();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return given().header("Accept", "text/plain").get("/metrics").asString();
    }

    @Test
    void anEvictedPodsStopTimeIsInTheIncidentAndTheHistogram() {
        String before = metrics();
        String job = OpsEvents.feed("ops-evict", "drained");
        String node = "drained-node-a";
        Instant evictedAt = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        int status = TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/k8s",
                                "pod.evicted",
                                job,
                                evictedAt,
                                "{\"pod\":\"drained-worker-0\",\"node\":\"" + node
                                        + "\",\"reason\":\"EvictionByEvictionAPI\"}"),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/trainer",
                                "trainer.worker_failed",
                                job,
                                evictedAt.plusMillis(12_500),
                                "{\"runId\":\"run-1\",\"rank\":0,\"node\":\"" + node
                                        + "\",\"exitCode\":-15,\"error\":\"Signal 15 (SIGTERM)\"}"))))
                .post("/api/v1/events")
                .statusCode();
        assertThat(status).isBetween(200, 299);

        JsonPath incidents = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> TestTokens.api()
                                .get("/api/v1/jobs/" + job + "/incidents")
                                .jsonPath(),
                        j -> j.getList("findAll { it.evictionStopMillis != null }")
                                        .size()
                                == 1);
        Map<String, Object> measured = incidents.getMap("find { it.evictionStopMillis != null }");
        assertThat(measured.get("evictionStopMillis")).isEqualTo(12_500);
        assertThat(measured.get("stopRequest")).isEqualTo("pod-eviction");
        assertThat(Instant.parse((String) measured.get("stopRequestedAt"))).isEqualTo(evictedAt);
        assertThat(Instant.parse((String) measured.get("workersStoppedAt"))).isEqualTo(evictedAt.plusMillis(12_500));
        assertThat(measured.get("workersStoppedBy")).isEqualTo("trainer.worker_failed");
        assertThat(measured.get("cause")).isEqualTo("spot-reclaim");

        double countBefore = sample(before, "lifeline_eviction_stop_seconds_count", null);
        String after = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(this::metrics, t -> sample(t, "lifeline_eviction_stop_seconds_count", null) > countBefore);
        assertThat(sample(after, "lifeline_eviction_stop_seconds_count", null)).isEqualTo(countBefore + 1);
        assertThat(sample(after, "lifeline_eviction_stop_seconds_sum", null)
                        - sample(before, "lifeline_eviction_stop_seconds_sum", null))
                .isCloseTo(12.5, org.assertj.core.data.Offset.offset(1e-6));
        // 12.5 s: above the 10 s bucket, within the 30 s one
        assertThat(sample(after, "lifeline_eviction_stop_seconds_bucket", "10.0"))
                .isEqualTo(sample(before, "lifeline_eviction_stop_seconds_bucket", "10.0"));
        assertThat(sample(after, "lifeline_eviction_stop_seconds_bucket", "30.0"))
                .isEqualTo(sample(before, "lifeline_eviction_stop_seconds_bucket", "30.0") + 1);
        assertThat(after).contains("# TYPE lifeline_eviction_stop_seconds histogram");
    }
}
