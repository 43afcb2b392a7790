package io.lifeline.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Looks at the test broker from outside, as an operator would: committed lag, records on a topic. */
public final class KafkaProbe {

    private KafkaProbe() {}

    /** Records not yet committed by {@code group} over the partitions it has committed; MAX_VALUE before any commit. */
    public static long committedLag(String group) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", KafkaResource.bootstrapServers());
        try (Admin admin = Admin.create(props)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get();
            long lag = 0;
            for (var e : committed.entrySet()) {
                lag += ends.get(e.getKey()).offset() - e.getValue().offset();
            }
            return committed.isEmpty() ? Long.MAX_VALUE : lag;
        }
    }

    /** Reads {@code topic} from the start until {@code expected} records with {@code key} are found (30 s at most). */
    public static List<ConsumerRecord<byte[], byte[]>> recordsWithKey(String topic, String key, int expected) {
        Properties c = new Properties();
        c.put("bootstrap.servers", KafkaResource.bootstrapServers());
        c.put("group.id", "probe-" + UUID.randomUUID());
        c.put("auto.offset.reset", "earliest");
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (found.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        found.add(r);
                    }
                }
            }
        }
        assertThat(found).hasSize(expected);
        return found;
    }
}
