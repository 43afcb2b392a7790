package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A job of a namespace of its own, on one 8-GPU node of a pool of its own, two days ago: a worker fails twice and the
 * job recovers each time. The seconds of each phase, from the events' times:
 *
 * <pre>
 *              stop     restarted   group formed   first progress   detection  rendezvous  restore
 *   first    T+400 s    T+430 s      T+440 s        T+500 s            30 s       10 s       60 s
 *   second   T+1100 s   T+1190 s     T+1220 s       T+1240 s           90 s       30 s       20 s
 * </pre>
 *
 * Nearest rank over two values: the median is the smaller (rank ⌈1⌉ = 1), the 90th percentile the larger (rank
 * ⌈1.8⌉ = 2). Detection: 30 and 90 s, Σ 120 s, × 8 GPUs = 960 GPU-s = 0.267 GPU-hours.
 */
@QuarkusTest
class RecoveryPhasesResourceTest {

    private static final String PATH = "/api/v1/reliability/recovery-phases";

    private static String event(String source, String type, String subject, Instant t, String data) {
        return CloudEvents.event(CloudEvents.uniqueId(), source, type, subject, t, data);
    }

    private static String rendezvous(String job, String node, Instant t, int round) {
        return event(
                "test/trainer",
                "trainer.rendezvous",
                job,
                t,
                "{\"runId\":\"run\",\"round\":" + round + ",\"worldSize\":8,\"participants\":[{\"node\":\"" + node
                        + "\",\"firstRank\":0,\"rankCount\":8}]}");
    }

    private static String progress(String job, Instant t, long step) {
        return event("test/trainer", "trainer.progress", job, t, "{\"step\":" + step + ",\"samplesPerSecond\":100.0}");
    }

    private static void failAndRecover(
            List<String> events,
            String job,
            String node,
            Instant stop,
            int detect,
            int rendezvous,
            int restore,
            int round,
            long step) {
        events.add(event(
                "test/trainer",
                "trainer.worker_failed",
                job,
                stop,
                "{\"runId\":\"run\",\"rank\":0,\"node\":\"" + node + "\",\"exitCode\":1}"));
        Instant restarted = stop.plusSeconds(detect);
        events.add(event(
                "test/trainer",
                "trainer.restarted",
                job,
                restarted,
                "{\"runId\":\"run\",\"restartCount\":" + (round - 1) + "}"));
        Instant formed = restarted.plusSeconds(rendezvous);
        events.add(rendezvous(job, node, formed, round));
        events.add(progress(job, formed.plusSeconds(restore), step));
    }

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
        String ns = "phases-" + tag;
        String job = ns + "/train";
        String node = "phases-node-" + tag;
        String pool = "phases-pool-" + tag;
        Instant t = Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
        List<String> events = new ArrayList<>();
        events.add(event(
                "test/k8s",
                "node.registered",
                node,
                t,
                "{\"pool\":\"" + pool + "\",\"capacityType\":\"on-demand\",\"zone\":\"eu-west-4c\","
                        + "\"instanceType\":\"a3-highgpu-8g\",\"gpuCount\":8}"));
        events.add(event(
                "test/k8s",
                "job.submitted",
                job,
                t,
                "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":1,\"procsPerNode\":8,"
                        + "\"maxRestarts\":10},\"gpusPerNode\":8}"));
        events.add(rendezvous(job, node, t.plusSeconds(10), 1));
        events.add(progress(job, t.plusSeconds(20), 10));
        events.add(progress(job, t.plusSeconds(300), 300));
        failAndRecover(events, job, node, t.plusSeconds(400), 30, 10, 60, 2, 310);
        events.add(progress(job, t.plusSeconds(1000), 900));
        failAndRecover(events, job, node, t.plusSeconds(1100), 90, 30, 20, 3, 910);
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);

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
