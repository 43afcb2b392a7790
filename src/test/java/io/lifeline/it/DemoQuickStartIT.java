package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The quick start with no settings at all: within a minute the demo fleet is live and readiness is UP. */
class DemoQuickStartIT {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void demoFleetIsVisibleWithinAMinute() throws Exception {
        Path work = Files.createTempDirectory("lifeline-demo");
        try (LifelineProcess app = LifelineProcess.start(work, work.resolve("lifeline.log"))) {
            long started = System.nanoTime();
            app.awaitReady(Duration.ofSeconds(120));
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                JsonNode events = json.readTree(app.get("/api/v1/events?order=desc&limit=50").body()).get("events");
                assertThat(events).isNotEmpty();
                assertThat(events.get(0).get("source").asText()).startsWith("lifeline-demo");
                JsonNode jobs = json.readTree(app.get("/api/v1/jobs").body());
                assertThat(jobs.get("total").asInt()).isGreaterThanOrEqualTo(4);
                JsonNode nodes = json.readTree(app.get("/api/v1/nodes").body());
                assertThat(nodes.get("total").asInt()).isGreaterThanOrEqualTo(32);
            });
            System.out.printf("Demo fleet visible %d s after launch%n", (System.nanoTime() - started) / 1_000_000_000L);
            assertThat(app.get("/q/health/ready").statusCode()).isEqualTo(200);
            readmeActionsWork(app);
            assertThat(app.stop()).isIn(0, 130, 143);
        }
    }

    /** What the README shows a new user: a dry-run drain, then a checkpoint-now the demo's trainers obey. */
    private void readmeActionsWork(LifelineProcess app) throws Exception {
        HttpResponse<String> dry = app.post("/api/v1/actions", "application/json", "{\"kind\":\"drain\","
                + "\"target\":\"ondemand-p4d-0000\",\"params\":{\"deadlineSeconds\":120},\"reason\":\"try it\","
                + "\"dryRun\":true}");
        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        assertThat(json.readTree(dry.body()).get("impact").get("nodes").get(0).asText()).isEqualTo("ondemand-p4d-0000");
        // The README's checkpoint-now works on any training job: right after launch the demo's jobs are still
        // starting (refused: nothing to save yet) and a job in recovery rejects it, so try until one succeeds.
        long giveUp = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        List<String> tried = new java.util.ArrayList<>();
        while (System.nanoTime() < giveUp) {
            for (String job : List.of("vision/vit-g14-clip", "research/mixtral-8x7b-sft", "speech/whisper-large-v3-ft")) {
                HttpResponse<String> r = app.post("/api/v1/actions", "application/json", "{\"kind\":\"checkpoint-now\","
                        + "\"target\":\"" + job + "\",\"reason\":\"try it\"}");
                if (r.statusCode() != 201) {
                    // Not running yet (400) or held by a policy's action (409).
                    assertThat(r.statusCode()).as(r.body()).isIn(400, 409);
                    tried.add(job + ": " + r.statusCode());
                    continue;
                }
                String path = "/api/v1/actions/" + json.readTree(r.body()).get("id").asText();
                Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() ->
                        List.of("succeeded", "failed", "cancelled").contains(state(app, path)));
                JsonNode action = json.readTree(app.get(path).body());
                if ("succeeded".equals(action.get("state").asText())) {
                    System.out.printf("Demo checkpoint-now on %s succeeded: %s%n", job, action.get("outcome"));
                    return;
                }
                tried.add(job + ": " + action.get("outcome").asText());
            }
            Thread.sleep(3_000);
        }
        throw new AssertionError("no checkpoint-now succeeded within 4 minutes: " + tried);
    }

    private String state(LifelineProcess app, String path) throws Exception {
        return json.readTree(app.get(path).body()).get("state").asText();
    }
}
