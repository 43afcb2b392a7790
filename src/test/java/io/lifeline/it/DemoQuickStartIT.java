package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The quick start with no settings at all: within a minute the demo fleet is live and readiness is UP. What the README
 * then tells a new user to run is run as written by DocumentedCommandsIT.
 */
class DemoQuickStartIT {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void demoFleetIsVisibleWithinAMinute() throws Exception {
        Path work = Files.createTempDirectory("lifeline-demo");
        try (LifelineProcess app = LifelineProcess.start(work, work.resolve("lifeline.log"))) {
            long started = System.nanoTime();
            app.awaitReady(Duration.ofSeconds(120));
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        JsonNode events = json.readTree(app.get("/api/v1/events?order=desc&limit=50")
                                        .body())
                                .get("events");
                        assertThat(events).isNotEmpty();
                        assertThat(events.get(0).get("source").asText()).startsWith("lifeline-demo");
                        JsonNode jobs = json.readTree(app.get("/api/v1/jobs").body());
                        assertThat(jobs.get("total").asInt()).isGreaterThanOrEqualTo(4);
                        JsonNode nodes = json.readTree(app.get("/api/v1/nodes").body());
                        assertThat(nodes.get("total").asInt()).isGreaterThanOrEqualTo(32);
                    });
            System.out.printf("Demo fleet visible %d s after launch%n", (System.nanoTime() - started) / 1_000_000_000L);
            assertThat(app.get("/q/health/ready").statusCode()).isEqualTo(200);
            assertThat(app.stop()).isIn(0, 130, 143);
        }
    }
}
