package io.lifeline.eventlog;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.PostgresResource;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The database goes away for a while: ingest buffers within its bound, then pushes back with 503 and reports not
 * ready; when the database returns, every acknowledged event is stored and readiness comes back.
 */
@QuarkusTest
class StoreOutageTest {

    @Test
    void ingestBuffersThenPushesBackAndLosesNothingAcknowledged() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String node = "outage-" + CloudEvents.uniqueId().substring(0, 8);
        // Verify the token while the database is up: known tokens keep working through the outage.
        RequestSpecification operator = TestTokens.asOperator();
        given(operator).get("/api/v1/whoami").then().statusCode(200);
        PostgresResource.stopServer();
        List<CompletableFuture<Response>> posts = new ArrayList<>();
        try {
            // 20,000 events of buffer (test profile): 25 batches of 1,000 overflow it.
            for (int b = 0; b < 25; b++) {
                List<String> batch = new ArrayList<>();
                for (int i = 0; i < 1000; i++) {
                    batch.add(CloudEvents.event(
                            node + "-" + b + "-" + i,
                            "test/outage",
                            "node.ready",
                            node,
                            now.plusMillis(b * 1000L + i),
                            "{}"));
                }
                String body = CloudEvents.array(batch);
                posts.add(CompletableFuture.supplyAsync(() -> given(operator)
                        .contentType("application/json")
                        .body(body)
                        .post("/api/v1/events")));
                Thread.sleep(50);
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            posts.stream().filter(CompletableFuture::isDone).count() >= 5);
            given().get("/q/health/ready").then().statusCode(503);
        } finally {
            PostgresResource.restartServer();
        }
        int acknowledged = 0;
        int pushedBack = 0;
        for (CompletableFuture<Response> f : posts) {
            Response r = f.get();
            if (r.statusCode() == 503) {
                pushedBack++;
                assertThat(r.getHeader("Retry-After")).isEqualTo("1");
            } else {
                assertThat(r.statusCode()).isEqualTo(200);
                acknowledged += r.jsonPath().getInt("accepted");
            }
        }
        assertThat(pushedBack)
                .as("batches pushed back while the buffer was full")
                .isEqualTo(5);
        final int expected = acknowledged;
        assertThat(expected).isGreaterThan(0);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200));
        int stored = 0;
        String cursor = null;
        do {
            var req = given(operator).queryParam("subject", node).queryParam("limit", 1000);
            if (cursor != null) {
                req = req.queryParam("cursor", cursor);
            }
            var page =
                    req.get("/api/v1/events").then().statusCode(200).extract().jsonPath();
            stored += page.getList("events").size();
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        assertThat(stored).isEqualTo(expected);
    }
}
