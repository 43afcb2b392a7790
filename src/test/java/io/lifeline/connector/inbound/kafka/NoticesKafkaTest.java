package io.lifeline.connector.inbound.kafka;

import static io.lifeline.testing.LifelineApi.registerNode;
import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.connector.inbound.pipeline.NoticeRecords;
import io.lifeline.ingest.kafka.DurableConsumerLoop;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.KafkaProbe;
import io.lifeline.testing.KafkaResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Provider-format notices and torchelastic lines on the {@code lifeline.notices} topic of the test broker. */
@QuarkusTest
class NoticesKafkaTest {

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @SuppressWarnings("FutureReturnValueIgnored") // the test asserts on what arrives, not on each send
    void recordsBecomeEventsAndRecordsWithNothingUsableAreDeadLetteredWithTheirReason() throws Exception {
        String key = unique("notices");
        String job = "team-kafka/" + unique("elastic");
        String instance = unique("i-kafka");
        String node = unique("aws-kafka");
        registerNode(node, "aws:///us-east-1c/" + instance, now);

        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaResource.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            // torchelastic lines, recognised by their shape; the job comes from a header.
            ProducerRecord<byte[], byte[]> lines = new ProducerRecord<>(
                    "lifeline.notices",
                    utf8(key),
                    Fixtures.bytes("torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl"));
            lines.headers().add(NoticeRecords.JOB, utf8(job));
            producer.send(lines);
            // An IMDS document named by headers.
            ProducerRecord<byte[], byte[]> imds = new ProducerRecord<>(
                    "lifeline.notices", utf8(key), Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"));
            imds.headers()
                    .add(NoticeRecords.FORMAT, utf8("aws.imds"))
                    .add(NoticeRecords.INSTANCE_ID, utf8(instance))
                    .add(NoticeRecords.IMDS_DOCUMENT, utf8("spot/instance-action"));
            producer.send(imds);
            // The same document for a machine nobody knows, and something that is no notice at all.
            ProducerRecord<byte[], byte[]> unknown = new ProducerRecord<>(
                    "lifeline.notices", utf8(key), Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"));
            unknown.headers()
                    .add(NoticeRecords.FORMAT, utf8("aws.imds"))
                    .add(NoticeRecords.INSTANCE_ID, utf8(unique("i-nobody")))
                    .add(NoticeRecords.IMDS_DOCUMENT, utf8("spot-instance-action"));
            producer.send(unknown);
            producer.send(new ProducerRecord<>("lifeline.notices", utf8(key), utf8("<html>not a notice</html>")));
            producer.flush();
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(stored(job, "trainer.worker_failed")).hasSize(1);
            assertThat(stored(node, "node.interruption_notice")).hasSize(1);
        });
        assertThat(stored(job, "trainer.restarted")).hasSize(1);

        List<ConsumerRecord<byte[], byte[]>> dead = KafkaProbe.recordsWithKey("lifeline.notices.dlq", key, 2);
        assertThat(dead)
                .extracting(r -> new String(
                        r.headers()
                                .lastHeader(DurableConsumerLoop.REASON_HEADER)
                                .value(),
                        StandardCharsets.UTF_8))
                .anySatisfy(reason -> assertThat(reason).startsWith("unknown_instance: "))
                .anySatisfy(reason -> assertThat(reason).startsWith("unknown_format: "));
        await().atMost(Duration.ofSeconds(30)).until(() -> KafkaProbe.committedLag("lifeline-notices") == 0);
    }
}
