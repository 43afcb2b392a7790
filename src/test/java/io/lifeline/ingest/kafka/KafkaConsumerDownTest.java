package io.lifeline.ingest.kafka;

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

/**
 * A Kafka ingest consumer that is down shows: readiness goes DOWN, the up gauge reads 0, and the lag, measured at the
 * broker, grows with what is produced meanwhile instead of reading 0. Once it polls again, all of it is read.
 */
@QuarkusTest
class KafkaConsumerDownTest {

    @Inject
    KafkaIngest ingest;

    @Test
    void aConsumerThatIsDownIsNotReadyAndItsLagGrows() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(ingest::up);
        ingest.stopConsumer();
        try {
            given().get("/q/health/ready").then().statusCode(503);
            assertThat(metric("lifeline_ingest_kafka_consumer_up")).isEqualTo(0.0);
            double before = lag();
            produce(7);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> lag() >= before + 7);
        } finally {
            ingest.start(KafkaResource.bootstrapServers());
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(ingest::up);
        given().get("/q/health/ready").then().statusCode(200);
        Awaitility.await()
                .atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> lag() == 0);
        assertThat(metric("lifeline_ingest_kafka_consumer_up")).isEqualTo(1.0);
    }

    private static void produce(int n) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaResource.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < n; i++) {
                String node = "down-node-" + CloudEvents.uniqueId().substring(0, 8);
                producer.send(new ProducerRecord<>(
                                "lifeline.events",
                                node.getBytes(StandardCharsets.UTF_8),
                                CloudEvents.nodeRegistered(CloudEvents.uniqueId(), node, Instant.now())
                                        .getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
        }
    }

    private static double lag() {
        return metric("lifeline_ingest_kafka_consumer_lag_records\\{topic=\"lifeline.events\",?}");
    }

    private static double metric(String series) {
        String text = given().header("Accept", "text/plain").get("/metrics").asString();
        Matcher m = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(text);
        assertThat(m.find()).as("%s in /metrics", series).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
