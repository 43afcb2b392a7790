package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Three nodes of a pool of its own, registered two days ago: one was not Ready for ten minutes a day ago, one was
 * terminated unannounced a day ago, one ran untouched. Two interruptions over 2 × 48 h + 24 h of service.
 */
@QuarkusTest
class ReliabilityResourceTest {

    private static final String POOL = "rel-rest";

    private static String event(String type, String node, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), "test/k8s", type, node, t, data);
    }

    private static String registered(String node, Instant t) {
        return event(
                "node.registered",
                node,
                t,
                "{\"pool\":\"" + POOL + "\",\"capacityType\":\"spot\","
                        + "\"zone\":\"eu-west-4c\",\"instanceType\":\"a3-highgpu-8g\",\"gpuCount\":8}");
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

    @SuppressWarnings("unchecked")
    private static Map<String, Object> row(JsonPath body, String group) {
        List<Map<String, Object>> rows = body.getList("rows");
        return rows.stream()
                .filter(r -> group.equals(r.get("group")))
                .findFirst()
                .orElse(null);
    }

    @Test
    void mtbfPerPoolWithItsIntervalByCauseAndWindow() {
        Instant t0 = Instant.now().minus(Duration.ofHours(48)).truncatedTo(ChronoUnit.MILLIS);
        Instant day = t0.plus(Duration.ofHours(24));
        post(List.of(
                registered("rel-a", t0),
                registered("rel-b", t0),
                registered("rel-c", t0),
                event("node.not_ready", "rel-a", day, "{\"reason\":\"KubeletNotReady\"}"),
                event("node.ready", "rel-a", day.plusSeconds(600), "{}"),
                event("node.terminated", "rel-c", day, "{\"reason\":\"instance gone\"}")));

        JsonPath body = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get("/api/v1/fleet/reliability?window=7d&groupBy=pool"), b -> {
                    Map<String, Object> r = row(b, POOL);
                    return r != null && ((Number) r.get("interruptions")).intValue() == 2;
                });
        double hours = Duration.between(t0, Instant.now()).toMillis() / 3_600_000.0;
        Map<String, Object> r = row(body, POOL);
        double nodeHours = ((Number) r.get("nodeHours")).doubleValue();
        assertThat(nodeHours).isCloseTo(2 * hours + 24, within(0.05));
        assertThat(((Number) r.get("mtbfHours")).doubleValue()).isCloseTo(nodeHours / 2, within(1e-6));
        assertThat(((Number) r.get("mtbfLowerHours")).doubleValue()).isLessThan(nodeHours / 2);
        assertThat(((Number) r.get("mtbfUpperHours")).doubleValue()).isGreaterThan(nodeHours / 2);
        assertThat((Map<String, Object>) r.get("byCause"))
                .containsEntry("not-ready", 1)
                .containsEntry("termination", 1);
        assertThat(body.getInt("windowDays")).isEqualTo(7);
        assertThat(body.getString("groupBy")).isEqualTo("pool");
        assertThat(body.getDouble("confidence")).isEqualTo(0.95);

        JsonPath zone = get("/api/v1/fleet/reliability?window=90d&groupBy=zone&cause=termination");
        assertThat(((Number) row(zone, "eu-west-4c").get("interruptions")).intValue())
                .isEqualTo(1);
        assertThat(zone.getString("groupBy")).isEqualTo("zone");
        assertThat(zone.getString("cause")).isEqualTo("termination");
    }

    @Test
    void refusesAnUnknownWindowGroupOrCause() {
        given(TestTokens.asAdmin())
                .get("/api/v1/fleet/reliability?window=12d")
                .then()
                .statusCode(400);
        given(TestTokens.asAdmin())
                .get("/api/v1/fleet/reliability?groupBy=rack")
                .then()
                .statusCode(400);
        given(TestTokens.asAdmin())
                .get("/api/v1/fleet/reliability?cause=cosmic-rays")
                .then()
                .statusCode(400);
    }
}
