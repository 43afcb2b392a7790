package io.lifeline.ingest;

import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.ConformanceSuite;
import io.lifeline.testing.KafkaProbe;
import io.lifeline.testing.KafkaResource;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Every case of the CloudEvents conformance suite ({@code fixtures/cloudevents}), the real way in: over HTTP as a single
 * structured event and in batches, and through the Kafka broker in binary and structured mode (the suite's
 * protocol-binding scenarios). Every valid case is taken and stored; every invalid one is refused with its reason (over
 * Kafka: dead-lettered with it). How the suite's events are made into catalogue events: {@link ConformanceSuite}.
 */
@QuarkusTest
class CloudEventsConformanceTest {

    private static final String CASE_HEADER = "conformance-case";

    private static String run() {
        return CloudEvents.uniqueId().substring(0, 8);
    }

    private static Response post(String contentType, String body) {
        return given(auth(TestTokens.ingest()))
                .contentType(contentType)
                .body(body)
                .post("/api/v1/events");
    }

    private static List<String> storedIds(String subject) {
        return given(auth(TestTokens.viewer()))
                .queryParam("subject", subject)
                .queryParam("limit", 1000)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("events.id");
    }

    @Test
    void overHttpEveryValidEventIsStoredAndEveryInvalidOneRefusedWithItsReason() {
        String run = run();
        ConformanceSuite suite = new ConformanceSuite("conf-http-" + run, run);
        Set<String> expected = new LinkedHashSet<>();
        // Both content types of the HTTP binding's structured scenario, with and without a charset.
        String[] types = {"application/cloudevents+json", "application/cloudevents+json; charset=utf-8"};
        int n = 0;
        for (ConformanceSuite.Case c : suite.validEvents()) {
            JsonPath answer = post(types[n++ % 2], c.json())
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(answer.getInt("accepted") + answer.getInt("duplicates"))
                    .as(c.id())
                    .isEqualTo(1);
            assertThat(answer.getInt("rejected")).as(c.id()).isZero();
            expected.add(c.event().get("id").textValue());
        }
        for (ConformanceSuite.Case c : suite.invalidEvents()) {
            JsonPath problem = post(types[n++ % 2], c.json())
                    .then()
                    .statusCode(400)
                    .extract()
                    .jsonPath();
            assertThat(problem.getString("type")).as(c.id()).isEqualTo("/problems/invalid-event");
            assertThat(problem.getString("errors[0].reason"))
                    .as(c.id())
                    .startsWith(ConformanceSuite.INVALID_REASONS.get(c.id()));
        }
        assertThat(storedIds(suite.node())).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void inHttpBatchesEveryInvalidEventIsRefusedByIndexAndTheRestKept() {
        String run = run();
        ConformanceSuite suite = new ConformanceSuite("conf-batch-" + run, run);
        Set<String> expected = new LinkedHashSet<>();
        for (ConformanceSuite.Batch b : suite.validBatches()) {
            if (b.events().isEmpty()) {
                // Valid and empty: nothing to take.
                post("application/cloudevents-batch+json", "[]").then().statusCode(200);
                continue;
            }
            JsonPath answer = post("application/cloudevents-batch+json", ConformanceSuite.json(b.events()))
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(answer.getInt("accepted") + answer.getInt("duplicates"))
                    .as(b.id())
                    .isEqualTo(b.events().size());
            assertThat(answer.getInt("rejected")).as(b.id()).isZero();
            b.events().forEach(e -> expected.add(e.get("id").textValue()));
        }
        // The suite's invalid batches: Lifeline keeps the good members and names each bad one.
        Map<String, Integer> badIndex = Map.of(
                "invalidBatchMixedSpecVersions",
                1,
                "invalidBatchContainingInvalidCloudEvent",
                0,
                "invalidBatchContainingNonObject",
                0);
        Map<String, String> badReason = Map.of(
                "invalidBatchMixedSpecVersions",
                "specversion: only \"1.0\" is supported",
                "invalidBatchContainingInvalidCloudEvent",
                "id: required",
                "invalidBatchContainingNonObject",
                "expected a CloudEvent object, got string");
        for (ConformanceSuite.Batch b : suite.invalidBatches()) {
            Response r = post("application/cloudevents-batch+json", ConformanceSuite.json(b.events()));
            JsonPath answer = r.then()
                    .statusCode(b.events().size() == 1 ? 400 : 200)
                    .extract()
                    .jsonPath();
            assertThat(answer.getList("errors")).as(b.id()).hasSize(1);
            assertThat(answer.getInt("errors[0].index")).as(b.id()).isEqualTo(badIndex.get(b.id()));
            assertThat(answer.getString("errors[0].reason")).as(b.id()).startsWith(badReason.get(b.id()));
            for (JsonNode e : b.events()) {
                if (e.isObject() && e.path("specversion").asText().equals("1.0") && e.hasNonNull("id")) {
                    expected.add(e.get("id").textValue());
                }
            }
        }
        // Every invalid event of the suite in one batch, between two valid ones: each refused at its index.
        List<ConformanceSuite.Case> invalid = suite.invalidEvents();
        List<String> batch = new ArrayList<>();
        batch.add(suite.validEvents().get(0).json().replace("minimal-" + run, "first-" + run));
        invalid.forEach(c -> batch.add(c.json()));
        batch.add(suite.validEvents().get(0).json().replace("minimal-" + run, "last-" + run));
        JsonPath answer = post("application/cloudevents-batch+json", CloudEvents.array(batch))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(answer.getInt("accepted")).isEqualTo(2);
        assertThat(answer.getInt("rejected")).isEqualTo(invalid.size());
        for (int i = 0; i < invalid.size(); i++) {
            assertThat(answer.getInt("errors[" + i + "].index")).isEqualTo(i + 1);
            assertThat(answer.getString("errors[" + i + "].reason"))
                    .as(invalid.get(i).id())
                    .startsWith(
                            ConformanceSuite.INVALID_REASONS.get(invalid.get(i).id()));
        }
        expected.add("first-" + run);
        expected.add("last-" + run);
        assertThat(storedIds(suite.node())).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaResource.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ProducerRecord<byte[], byte[]> structured(String key, ConformanceSuite.Case c) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>("lifeline.events", utf8(key), utf8(c.json()));
        r.headers()
                .add("content-type", utf8("application/cloudevents+json; charset=utf-8"))
                .add(CASE_HEADER, utf8(c.id() + "/structured"));
        return r;
    }

    private static ProducerRecord<byte[], byte[]> binary(String key, ConformanceSuite.Case c) {
        ProducerRecord<byte[], byte[]> r =
                new ProducerRecord<>("lifeline.events", utf8(key), ConformanceSuite.binaryValue(c.event()));
        ConformanceSuite.binaryHeaders(c.event())
                .forEach((name, value) -> r.headers().add(name, utf8(value)));
        r.headers().add(CASE_HEADER, utf8(c.id() + "/binary"));
        return r;
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void overKafkaInBinaryAndStructuredModeEveryValidEventIsStoredAndEveryInvalidOneDeadLetteredWithItsReason()
            throws Exception {
        String run = run();
        String node = "conf-kafka-" + run;
        ConformanceSuite inBinary = new ConformanceSuite(node, run + "-bin");
        ConformanceSuite inStructured = new ConformanceSuite(node, run + "-str");
        Set<String> expected = new LinkedHashSet<>();
        Map<String, String> reasons = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (ConformanceSuite.Case c : inBinary.validEvents()) {
                p.send(binary(node, c));
                expected.add(c.event().get("id").textValue());
            }
            for (ConformanceSuite.Case c : inStructured.validEvents()) {
                p.send(structured(node, c));
                expected.add(c.event().get("id").textValue());
            }
            for (ConformanceSuite.Case c : inBinary.invalidEvents()) {
                if (!ConformanceSuite.NOT_IN_BINARY_MODE.contains(c.id())) {
                    p.send(binary(node, c));
                    reasons.put(c.id() + "/binary", ConformanceSuite.binaryReason(c.id()));
                }
            }
            for (ConformanceSuite.Case c : inStructured.invalidEvents()) {
                p.send(structured(node, c));
                reasons.put(c.id() + "/structured", ConformanceSuite.INVALID_REASONS.get(c.id()));
            }
            p.flush();
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(storedIds(node)).containsExactlyInAnyOrderElementsOf(expected));

        List<ConsumerRecord<byte[], byte[]>> dead =
                KafkaProbe.recordsWithKey("lifeline.events.dlq", node, reasons.size());
        Map<String, String> deadReasons = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            deadReasons.put(
                    new String(r.headers().lastHeader(CASE_HEADER).value(), StandardCharsets.UTF_8),
                    new String(r.headers().lastHeader("lifeline.dlq.reason").value(), StandardCharsets.UTF_8));
        }
        assertThat(deadReasons.keySet()).containsExactlyInAnyOrderElementsOf(reasons.keySet());
        assertThat(deadReasons)
                .allSatisfy((c, reason) -> assertThat(reason).as(c).startsWith(reasons.get(c)));
    }
}
