package io.lifeline.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.KafkaResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The Kafka lag gauge reads the ingest consumer's own per-partition lag from the test broker's real consumer. */
@QuarkusTest
class KafkaLagMetricsTest {

    @Inject
    KafkaLagMetrics lag;

    @Test
    void reportsTheIngestConsumersLagPerTopic() throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaResource.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        String node = "lag-node-" + CloudEvents.uniqueId().substring(0, 8);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>("lifeline.events", node.getBytes(StandardCharsets.UTF_8),
                    CloudEvents.nodeRegistered(CloudEvents.uniqueId(), node, Instant.now())
                            .getBytes(StandardCharsets.UTF_8))).get();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> lag.partitionsReported("lifeline.events") > 0);
        String text = given().header("Accept", "text/plain").get("/metrics").asString();
        Matcher m = Pattern.compile("lifeline_ingest_kafka_consumer_lag_records\\{topic=\"lifeline.events\",?} (\\S+)")
                .matcher(text);
        assertThat(m.find()).as("lag series in %s", text.lines()
                .filter(l -> l.contains("kafka_consumer_lag")).toList()).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isGreaterThanOrEqualTo(0.0).isFinite();
    }
}
