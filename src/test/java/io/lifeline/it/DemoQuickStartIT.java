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
        String id = null;
        for (String job : List.of("vision/vit-g14-clip", "recsys/dlrm-dcnv2", "speech/whisper-large-v3-ft")) {
            HttpResponse<String> r = app.post("/api/v1/actions", "application/json", "{\"kind\":\"checkpoint-now\","
                    + "\"target\":\"" + job + "\",\"reason\":\"try it\"}");
            // A policy may hold the job already (409); the README's request works on any running job.
            if (r.statusCode() == 201) {
                id = json.readTree(r.body()).get("id").asText();
                break;
            }
            assertThat(r.statusCode()).as(r.body()).isIn(400, 409);
        }
        assertThat(id).as("a checkpoint-now was accepted").isNotNull();
        String path = "/api/v1/actions/" + id;
        Awaitility.await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() ->
                assertThat(json.readTree(app.get(path).body()).get("state").asText()).isEqualTo("succeeded"));
        System.out.printf("Demo checkpoint-now %s succeeded: %s%n", id, json.readTree(app.get(path).body()).get("outcome"));
    }
}
