package io.lifeline.api.ingest;

import static io.lifeline.testing.TestTokens.asOperator;
import static io.lifeline.testing.TestTokens.operator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import io.lifeline.testing.CloudEvents;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@QuarkusTest
class HttpIngestTest {

    @TestHTTPResource("/")
    URL baseUrl;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static String node() {
        return "node-" + CloudEvents.uniqueId().substring(0, 8);
    }

    @Test
    void singleEventIsStoredAndListed() {
        String node = node();
        String id = CloudEvents.uniqueId();
        given(asOperator())
                .contentType("application/cloudevents+json")
                .body(CloudEvents.nodeRegistered(id, node, now))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        given(asOperator())
                .queryParam("subject", node)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events", hasSize(1))
                .body("events[0].id", equalTo(id))
                .body("events[0].type", equalTo("node.registered"))
                .body("events[0].data.gpuCount", equalTo(8));
    }

    @Test
    void batchOfThousandWithOneBadEventKeeps999AndReportsTheBadOne() {
        String node = node();
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/batch",
                    "node.cordoned",
                    node,
                    now.plusMillis(i),
                    "{\"by\":\"test\"}"));
        }
        events.set(500, CloudEvents.event("bad-one", "test/batch", "node.cordoned", node, now, "{\"by\":42}"));
        JsonPath r = given(asOperator())
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getInt("accepted")).isEqualTo(999);
        assertThat(r.getInt("rejected")).isEqualTo(1);
        assertThat(r.getInt("errors[0].index")).isEqualTo(500);
        assertThat(r.getString("errors[0].id")).isEqualTo("bad-one");
        assertThat(r.getString("errors[0].reason")).isEqualTo("data.by: expected a string, got number 42");
        int stored = countStored(node);
        assertThat(stored).isEqualTo(999);
    }

    private int countStored(String subject) {
        int total = 0;
        String cursor = null;
        do {
            var req = given(asOperator()).queryParam("subject", subject).queryParam("limit", 1000);
            if (cursor != null) {
                req = req.queryParam("cursor", cursor);
            }
            JsonPath page =
                    req.get("/api/v1/events").then().statusCode(200).extract().jsonPath();
            total += page.getList("events").size();
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        return total;
    }

    /**
     * docs/events.md, "Telemetry in the log": the first sample of a GPU and one whose health counters changed are
     * stored and listed by GET /api/v1/events; a sample in between, no different, is not.
     */
    @Test
    void theTelemetryTheLogKeepsIsListedAndTheRestIsNot() {
        String node = node();
        String uuid = "GPU-" + CloudEvents.uniqueId();
        String cool = "{\"uuid\":\"" + uuid + "\",\"index\":0,\"temperatureCelsius\":60.0,\"eccDbeVolatile\":0}";
        String failing = "{\"uuid\":\"" + uuid + "\",\"index\":0,\"temperatureCelsius\":60.0,\"eccDbeVolatile\":2}";
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.event("s1", "dcgm/" + node, "gpu.sample", node, now, cool),
                        CloudEvents.event("s2", "dcgm/" + node, "gpu.sample", node, now.plusSeconds(15), cool),
                        CloudEvents.event("s3", "dcgm/" + node, "gpu.sample", node, now.plusSeconds(30), failing))))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(3));

        given(asOperator())
                .queryParam("subject", node)
                .queryParam("type", "gpu.sample")
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events.id", equalTo(List.of("s1", "s3")))
                .body("events[1].data.eccDbeVolatile", equalTo(2));
    }

    @Test
    void duplicatedEventsAreAppliedOnce() {
        String node = node();
        String event = CloudEvents.nodeRegistered("dup-" + node, node, now);
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(List.of(event, event)))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1))
                .body("duplicates", equalTo(1));
        given(asOperator())
                .contentType("application/json")
                .body(event)
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(0))
                .body("duplicates", equalTo(1));
        assertThat(countStored(node)).isEqualTo(1);
    }

    @Test
    void eventsOutOfOrderAreListedInEventTimeOrder() {
        String node = node();
        List<String> events = List.of(
                CloudEvents.event("c", "test/order", "node.cordoned", node, now.plusSeconds(30), "{}"),
                CloudEvents.event(
                        "a",
                        "test/order",
                        "node.registered",
                        node,
                        now,
                        "{\"pool\":\"p\",\"capacityType\":\"on-demand\",\"gpuCount\":8}"),
                CloudEvents.event("b", "test/order", "node.ready", node, now.plusSeconds(10), "{}"));
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(3));
        given(asOperator())
                .queryParam("subject", node)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events.id", equalTo(List.of("a", "b", "c")));
        given(asOperator())
                .queryParam("subject", node)
                .queryParam("order", "desc")
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events.id", equalTo(List.of("c", "b", "a")));
    }

    @Test
    void pagingWalksTheWholeLogWithoutRepeats() {
        String node = node();
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            events.add(CloudEvents.event("p" + i, "test/page", "node.ready", node, now.plusSeconds(i / 2), "{}"));
        }
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            var req = given(asOperator()).queryParam("subject", node).queryParam("limit", 10);
            if (cursor != null) {
                req = req.queryParam("cursor", cursor);
            }
            JsonPath page =
                    req.get("/api/v1/events").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("events.id"));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        assertThat(seen).hasSize(25).doesNotHaveDuplicates();
    }

    @Test
    void filtersByTypeAndTimeRange() {
        String node = node();
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.event("f1", "test/f", "node.ready", node, now, "{}"),
                        CloudEvents.event("f2", "test/f", "node.cordoned", node, now.plusSeconds(60), "{}"),
                        CloudEvents.event("f3", "test/f", "node.ready", node, now.plusSeconds(120), "{}"))))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        given(asOperator())
                .queryParam("subject", node)
                .queryParam("type", "node.ready")
                .get("/api/v1/events")
                .then()
                .body("events.id", equalTo(List.of("f1", "f3")));
        given(asOperator())
                .queryParam("subject", node)
                .queryParam("from", now.plusSeconds(30).toString())
                .queryParam("to", now.plusSeconds(120).toString())
                .get("/api/v1/events")
                .then()
                .body("events.id", equalTo(List.of("f2")));
    }

    @Test
    void ndjsonBodyIsAccepted() {
        String node = node();
        String body = CloudEvents.event("n1", "test/nd", "node.ready", node, now, "{}") + "\n"
                + CloudEvents.event(
                        "n2", "test/nd", "node.not_ready", node, now.plusSeconds(1), "{\"reason\":\"kubelet\"}")
                + "\n";
        given(asOperator())
                .contentType("application/x-ndjson")
                .body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(2));
    }

    @Test
    void malformedJsonGetsAProblemResponse() {
        given(asOperator())
                .contentType("application/json")
                .body("{\"specversion\": ")
                .post("/api/v1/events")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("detail", startsWith("malformed JSON"));
    }

    @Test
    void singleInvalidEventGetsAProblemNamingTheField() {
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.event(
                        "x", "test/x", "node.registered", node(), now, "{\"pool\":\"p\",\"gpuCount\":8}"))
                .post("/api/v1/events")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("detail", equalTo("data.capacityType: required (one of spot, on-demand, reserved)"))
                .body("errors[0].index", equalTo(0));
    }

    @Test
    void unknownTypeAndMissingAttributeAreRejected() {
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.event("u1", "test/u", "node.vanished", node(), now, "{}"),
                        "{\"specversion\":\"1.0\",\"id\":\"u2\",\"type\":\"node.ready\",\"subject\":\"n\",\"time\":\""
                                + now + "\",\"data\":{}}")))
                .post("/api/v1/events")
                .then()
                .statusCode(400)
                .body(
                        "errors.reason",
                        equalTo(List.of(
                                "type: unknown type 'node.vanished' (see docs/events.md for the " + "catalogue)",
                                "source: required")));
    }

    @Test
    void tenMegabyteBodyIsRefused() throws Exception {
        byte[] big = new byte[10 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        big[0] = '[';
        big[big.length - 1] = ']';
        // The server answers 413 as soon as it sees the length, so ask first (Expect: 100-continue) like curl does.
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "api/v1/events"))
                .expectContinue(true)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + operator())
                .POST(HttpRequest.BodyPublishers.ofByteArray(big))
                .build();
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> resp =
                client.sendAsync(req, HttpResponse.BodyHandlers.ofString()).get(60, TimeUnit.SECONDS);
        assertThat(resp.statusCode()).isEqualTo(413);

        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void wrongContentTypeIsRefused() {
        given(asOperator())
                .contentType("text/plain")
                .body("hello")
                .post("/api/v1/events")
                .then()
                .statusCode(415);
    }

    @Test
    void eventFarInTheFutureIsRejected() {
        given(asOperator())
                .contentType("application/json")
                .body(CloudEvents.nodeRegistered("future", node(), now.plus(3, ChronoUnit.DAYS)))
                .post("/api/v1/events")
                .then()
                .statusCode(400)
                .body("detail", startsWith("time: "));
    }

    /** Events PostgreSQL would refuse are refused before storage: 400 with the reason, never 503 to retry forever. */
    @Test
    void poisonEventsAreRefusedWithTheirReasonAndTheRestOfTheBatchKept() {
        String node = node();
        String year0 = CloudEvents.event("year0-" + node, "test/poison", "node.cordoned", node, now, "{}")
                .replace(now.toString(), "0000-01-01T00:00:00Z");
        String nul = CloudEvents.event("nul\\u0000" + node, "test/poison", "node.cordoned", node, now, "{}");
        String good = CloudEvents.event("good-" + node, "test/poison", "node.cordoned", node, now, "{}");
        given(asOperator())
                .contentType("application/cloudevents+json")
                .body(year0)
                .post("/api/v1/events")
                .then()
                .statusCode(400)
                .body("errors[0].reason", startsWith("time: must be between 1970-01-01T00:00:00Z"));
        JsonPath r = given(asOperator())
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(List.of(nul, good, year0)))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getInt("accepted")).isEqualTo(1);
        assertThat(r.getList("errors.index")).containsExactly(0, 2);
        assertThat(r.getString("errors[0].reason")).isEqualTo("id: must not contain NUL characters");
        assertThat(countStored(node)).isEqualTo(1);
    }

    @Test
    void badQueryParametersGetProblems() {
        given(asOperator())
                .queryParam("limit", 0)
                .get("/api/v1/events")
                .then()
                .statusCode(400)
                .body("detail", equalTo("limit: must be between 1 and 1000, got 0"));
        given(asOperator())
                .queryParam("cursor", "'; DROP TABLE event_log; --")
                .get("/api/v1/events")
                .then()
                .statusCode(400)
                .body("detail", equalTo("cursor: not a cursor returned by this API"));
        given(asOperator())
                .queryParam("subject", "x' OR '1'='1")
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events", hasSize(0));
        given(asOperator())
                .queryParam("from", "last tuesday")
                .get("/api/v1/events")
                .then()
                .statusCode(400);
    }

    @Test
    void readinessIsUpWhenIngestIsOpen() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
