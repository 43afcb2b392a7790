package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwiceRecoveredJob;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The job of {@link TwiceRecoveredJob}, two days ago, read per cause by a viewer of its namespace, per pool by the
 * admin, and by a viewer of another namespace (who sees none of it). Its phases are worked out in that class.
 */
@QuarkusTest
class RecoveryPhasesResourceTest {

    private static final String PATH = "/api/v1/reliability/recovery-phases";

    private static JsonPath get(String token, String query) {
        return given(TestTokens.auth(token))
                .get(PATH + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> phase(Map<String, Object> row, String phase) {
        return ((List<Map<String, Object>>) row.get("phases"))
                .stream().filter(p -> phase.equals(p.get("phase"))).findFirst().orElseThrow();
    }

    private static double num(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
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
    void phasesPerCauseAndPoolOverTheScopedJobsInterruptions() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        TwiceRecoveredJob job = TwiceRecoveredJob.tagged(tag);
        String ns = job.namespace();
        String pool = job.pool();
        job.post(Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS));

        String team = TestTokens.create("phases-" + tag, Role.VIEWER, List.of(ns));
        JsonPath body = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> get(team, ""), b -> b.getInt("all.incidents") == 2);
        assertThat(body.getInt("windowDays")).isEqualTo(7);
        assertThat(body.getString("groupBy")).isEqualTo("cause");
        Map<String, Object> sw = row(body, "software-error");
        assertThat(sw).isNotNull();
        assertThat(sw.get("cause")).isEqualTo("software-error");
        assertThat(sw.get("pool")).isNull();
        assertThat(((Number) sw.get("incidents")).intValue()).isEqualTo(2);

        Map<String, Object> detection = phase(sw, "detection");
        assertThat(num(detection, "p50Seconds")).isEqualTo(30.0);
        assertThat(num(detection, "p90Seconds")).isEqualTo(90.0);
        assertThat(num(detection, "maxSeconds")).isEqualTo(90.0);
        assertThat(num(detection, "totalSeconds")).isEqualTo(120.0);
        assertThat(num(detection, "gpuHours")).isCloseTo(960 / 3600.0, within(1e-6));
        Map<String, Object> rendezvous = phase(sw, "rendezvous");
        assertThat(num(rendezvous, "p50Seconds")).isEqualTo(10.0);
        assertThat(num(rendezvous, "p90Seconds")).isEqualTo(30.0);
        Map<String, Object> restore = phase(sw, "restore");
        // 60 and 20 s → 20, 60.
        assertThat(num(restore, "p50Seconds")).isEqualTo(20.0);
        assertThat(num(restore, "p90Seconds")).isEqualTo(60.0);
        assertThat(num(restore, "totalSeconds")).isEqualTo(80.0);
        assertThat(num(phase(sw, "decision"), "totalSeconds")).isZero();
        assertThat(num(phase(sw, "rescheduling"), "totalSeconds")).isZero();
        assertThat(num(phase(sw, "lost-rework"), "totalSeconds")).isPositive();

        // By pool, as the admin: the pool of its own holds exactly these two.
        JsonPath byPool = get(TestTokens.admin(), "?window=30d&by=pool");
        assertThat(byPool.getInt("windowDays")).isEqualTo(30);
        Map<String, Object> p = row(byPool, pool);
        assertThat(((Number) p.get("incidents")).intValue()).isEqualTo(2);
        assertThat(p.get("cause")).isNull();
        assertThat(num(phase(p, "detection"), "totalSeconds")).isEqualTo(120.0);
        assertThat(row(get(team, "?by=cause-pool"), "software-error · " + pool)).isNotNull();

        // Another team sees none of them.
        String other = TestTokens.create("phases-other-" + tag, Role.VIEWER, List.of("other-" + tag));
        JsonPath none = get(other, "");
        assertThat(none.getInt("all.incidents")).isZero();
        assertThat(none.getList("rows")).isEmpty();
        assertThat((Object) none.get("all.phases[0].p50Seconds")).isNull();
    }

    @Test
    void refusesAnUnknownWindowOrGrouping() {
        given(TestTokens.asViewer()).get(PATH + "?window=90d").then().statusCode(400);
        given(TestTokens.asViewer()).get(PATH + "?by=zone").then().statusCode(400);
    }
}
