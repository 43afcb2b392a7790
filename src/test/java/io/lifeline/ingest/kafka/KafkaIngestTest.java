package io.lifeline.ingest.kafka;

import static io.lifeline.testing.TestTokens.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.KafkaProbe;
import io.lifeline.testing.KafkaResource;
import io.lifeline.testing.LifelineApi;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

@QuarkusTest
class KafkaIngestTest {

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

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

    private static int stored(String subject) {
        return given(asViewer())
                .queryParam("subject", subject)
                .queryParam("limit", 1000)
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("events")
                .size();
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void structuredAndBinaryRecordsAreIngestedAndBadRecordsAreDeadLettered() throws Exception {
        String node = "kafka-node-" + UUID.randomUUID().toString().substring(0, 8);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            p.send(new ProducerRecord<>(
                    "lifeline.events", utf8(node), utf8(CloudEvents.nodeRegistered("k1-" + node, node, now))));
            p.send(new ProducerRecord<>("lifeline.events", utf8(node), utf8("this is not JSON")));
            ProducerRecord<byte[], byte[]> binary = new ProducerRecord<>(
                    "lifeline.events", utf8(node), utf8("{\"reason\":\"kubelet stopped posting\"}"));
            binary.headers()
                    .add("ce_specversion", utf8("1.0"))
                    .add("ce_id", utf8("k2-" + node))
                    .add("ce_source", utf8("test/kafka"))
                    .add("ce_type", utf8("node.not_ready"))
                    .add("ce_subject", utf8(node))
                    .add("ce_time", utf8(now.plusSeconds(5).toString()))
                    .add("content-type", utf8("application/json"));
            p.send(binary);
            p.send(new ProducerRecord<>(
                    "lifeline.events",
                    utf8(node),
                    utf8(CloudEvents.event("k3-" + node, "test/kafka", "node.teleported", node, now, "{}"))));
            p.send(new ProducerRecord<>(
                    "lifeline.events",
                    utf8(node),
                    utf8(CloudEvents.event(
                            "k4-" + node, "test/kafka", "node.cordoned", node, now.plusSeconds(9), "{}"))));
            p.flush();
        }
        // The consumer keeps going past the bad records: the last good one arrives too.
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(stored(node)).isEqualTo(3));

        List<ConsumerRecord<byte[], byte[]>> dead = KafkaProbe.recordsWithKey("lifeline.events.dlq", node, 2);
        assertThat(dead)
                .extracting(r -> new String(
                        r.headers().lastHeader(KafkaIngest.REASON_HEADER).value(), StandardCharsets.UTF_8))
                .anySatisfy(reason -> assertThat(reason).startsWith("malformed JSON"))
                .anySatisfy(reason -> assertThat(reason).startsWith("type: unknown type 'node.teleported'"));
        assertThat(dead)
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .contains("this is not JSON");
        given().get("/metrics")
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString("lifeline_ingest_dead_lettered_events_total"));
    }

    /**
     * A record the model does not apply (a notice older than its node's registration) is stored, not dead-lettered,
     * and nobody waits for an answer: its reason is written down and counted.
     */
    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void aRecordTheModelDoesNotApplyIsCountedWithItsReason() throws Exception {
        String node = "kafka-stale-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> stale = Map.of("type", "node.interruption_notice", "reason", "stale");
        double before = LifelineApi.metric("lifeline_ingest_not_applied_events_total", stale);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            p.send(new ProducerRecord<>(
                    "lifeline.events", utf8(node), utf8(CloudEvents.nodeRegistered("s1-" + node, node, now))));
            p.send(new ProducerRecord<>(
                    "lifeline.events",
                    utf8(node),
                    utf8(CloudEvents.event(
                            "s2-" + node,
                            "cloud/aws",
                            "node.interruption_notice",
                            node,
                            now.minusSeconds(600),
                            "{\"kind\":\"spot_reclaim\",\"deadline\":\"" + now.plusSeconds(120) + "\"}"))));
            p.flush();
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(stored(node)).isEqualTo(2));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(LifelineApi.metric("lifeline_ingest_not_applied_events_total", stale))
                        .isGreaterThanOrEqualTo(before + 1));
        assertThat(given(asViewer())
                        .get("/api/v1/nodes/" + node)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getMap("notice"))
                .isNull();
    }

    private ProducerRecord<byte[], byte[]> binaryCordoned(String node, byte[] id, byte[] source, String time) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>("lifeline.events", utf8(node), utf8("{}"));
        r.headers()
                .add("ce_specversion", utf8("1.0"))
                .add("ce_id", id)
                .add("ce_source", source)
                .add("ce_type", utf8("node.cordoned"))
                .add("ce_subject", utf8(node))
                .add("ce_time", utf8(time));
        return r;
    }

    /**
     * Records PostgreSQL would refuse (a year-0 time, a NUL byte in a binary-mode id or source) are dead-lettered
     * with their reason, and the records behind them go on being stored: ingest is not held up retrying them.
     */
    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void poisonRecordsAreDeadLetteredWithTheirReasonAndIngestGoesOn() throws Exception {
        String node = "kafka-poison-" + UUID.randomUUID().toString().substring(0, 8);
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            p.send(binaryCordoned(node, utf8("p1-" + node), utf8("test/kafka"), "0000-01-01T00:00:00Z"));
            p.send(binaryCordoned(node, utf8("p2-\u0000" + node), utf8("test/kafka"), now.toString()));
            p.send(binaryCordoned(node, utf8("p3-" + node), utf8("test/\u0000kafka"), now.toString()));
            p.send(new ProducerRecord<>(
                    "lifeline.events",
                    utf8(node),
                    utf8(CloudEvents.event("p4-" + node, "test/kafka", "node.cordoned", node, now, "{}")
                            .replace(now.toString(), "0000-01-01T00:00:00Z"))));
            p.send(binaryCordoned(node, utf8("ok-" + node), utf8("test/kafka"), now.toString()));
            p.flush();
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(stored(node)).isEqualTo(1));
        List<ConsumerRecord<byte[], byte[]>> dead = KafkaProbe.recordsWithKey("lifeline.events.dlq", node, 4);
        assertThat(dead)
                .extracting(r -> new String(
                        r.headers().lastHeader(KafkaIngest.REASON_HEADER).value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder(
                        "ce_time: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z, got '0000-01-01T00:00:00Z'",
                        "ce_id: must not contain NUL characters",
                        "ce_source: must not contain NUL characters",
                        "time: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z, got '0000-01-01T00:00:00Z'");
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void redeliveredRecordsAreNotCountedTwiceAndOffsetsAreCommitted() throws Exception {
        String job = "team-k/dup-" + UUID.randomUUID().toString().substring(0, 8);
        String event =
                CloudEvents.event("same-id", "test/kafka-dup", "workload.admitted", job, now, "{\"queue\":\"q\"}");
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int i = 0; i < 3; i++) {
                p.send(new ProducerRecord<>("lifeline.events", utf8(job), utf8(event)));
            }
            p.flush();
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () -> assertThat(KafkaProbe.committedLag("lifeline")).isZero());
        assertThat(stored(job)).isEqualTo(1);
    }
}
