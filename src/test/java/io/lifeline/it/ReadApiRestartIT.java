package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.EventCodec;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.event.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The model is rebuilt from the stored log after a restart: with the clock held still, every read API answer is
 * the same before and after. The events are two hours of the demo fleet, sent over HTTP.
 */
class ReadApiRestartIT {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyReadAnswerIsTheSameAfterARestart() throws Exception {
        Path work = Files.createTempDirectory("lifeline-restart");
        Path log = work.resolve("lifeline.log");
        String[] props = {"-Dlifeline.demo.enabled=false", "-Dlifeline.clock.fixed=" + NOW};
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), NOW.minus(Duration.ofHours(2)));
        List<Event> events = sim.advanceTo(NOW.minusSeconds(1));
        EventCodec codec = new EventCodec();
        Map<String, JsonNode> before;
        try (LifelineProcess app = LifelineProcess.start(work, log, props)) {
            app.awaitReady(Duration.ofSeconds(120));
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            long accepted = 0;
            for (int i = 0; i < events.size(); i += 2000) {
                StringBuilder body = new StringBuilder("[");
                for (int j = i; j < Math.min(events.size(), i + 2000); j++) {
                    body.append(j == i ? "" : ",").append(codec.toJson(codec.encodeEvent(events.get(j))));
                }
                var resp = app.post(
                        "/api/v1/events", "application/json", body.append(']').toString());
                assertThat(resp.statusCode()).as(resp.body()).isEqualTo(200);
                accepted += json.readTree(resp.body()).get("accepted").asLong();
            }
            assertThat(accepted).isEqualTo(events.size());
            final long expected = accepted;
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> applied(app) >= expected);
            before = answers(app);
            assertThat(app.stop()).isIn(0, 130, 143);
        }
        assertThat(before.get("/api/v1/jobs?limit=1000").get("total").asInt()).isGreaterThanOrEqualTo(4);
        try (LifelineProcess app = LifelineProcess.start(work, log, props)) {
            app.awaitReady(Duration.ofSeconds(120));
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            Map<String, JsonNode> after = answers(app);
            assertThat(after.keySet()).isEqualTo(before.keySet());
            for (String path : before.keySet()) {
                assertThat(after.get(path)).as(path).isEqualTo(before.get(path));
            }
            assertThat(app.stop()).isIn(0, 130, 143);
        }
    }

    private long applied(LifelineProcess app) throws Exception {
        JsonNode health = json.readTree(app.get("/q/health/ready").body());
        for (JsonNode check : health.get("checks")) {
            if ("ingest".equals(check.get("name").asText())) {
                return check.get("data").get("appliedEvents").asLong();
            }
        }
        return -1;
    }

    private Map<String, JsonNode> answers(LifelineProcess app) throws Exception {
        List<String> paths = new ArrayList<>(List.of(
                "/api/v1/nodes?limit=5000",
                "/api/v1/gpus?limit=20000",
                "/api/v1/fleet/health",
                "/api/v1/fleet/notices",
                "/api/v1/jobs?limit=1000",
                "/api/v1/goodput",
                "/api/v1/goodput?by=pool",
                "/api/v1/goodput?by=capacity-type",
                "/api/v1/goodput?by=namespace"));
        JsonNode jobs = json.readTree(app.get("/api/v1/jobs?limit=1000").body()).get("items");
        for (JsonNode j : jobs) {
            String base = "/api/v1/jobs/" + j.get("name").asText();
            for (String part : List.of(
                    "",
                    "/timeline?limit=1000",
                    "/incidents",
                    "/checkpoints",
                    "/freshness",
                    "/membership",
                    "/goodput",
                    "/advice")) {
                paths.add(base + part);
            }
        }
        JsonNode nodes =
                json.readTree(app.get("/api/v1/nodes?limit=5000").body()).get("items");
        for (JsonNode n : nodes) {
            paths.add("/api/v1/nodes/" + n.get("name").asText());
        }
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (String p : paths) {
            var resp = app.get(p);
            assertThat(resp.statusCode()).as(p + ": " + resp.body()).isEqualTo(200);
            out.put(p, json.readTree(resp.body()));
        }
        return out;
    }
}
