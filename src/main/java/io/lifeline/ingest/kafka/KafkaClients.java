package io.lifeline.ingest.kafka;

import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.OffsetStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka clients every Lifeline consumer uses: byte-array records, manual commits (offsets only after the
 * batch is durable), and a dead-letter producer that waits for all in-sync replicas. Pass-through client
 * properties ({@code lifeline.kafka.properties.*}: security, SASL) apply to both.
 */
public final class KafkaClients {

    private KafkaClients() {}

    public static KafkaConsumer<byte[], byte[]> consumer(
            String servers, Map<String, String> extra, String groupId, int maxPollRecords) {
        Properties c = common(servers, extra);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(maxPollRecords));
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(c);
    }

    public static KafkaProducer<byte[], byte[]> deadLetterProducer(String servers, Map<String, String> extra) {
        Properties p = common(servers, extra);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    /** The offsets {@code group} stored with its events, as the loop seeks to them. */
    public static DurableConsumerLoop.StoredOffsets storedOffsets(OffsetStore store, String group) {
        return partitions -> {
            List<ConsumedOffsets.Position> wanted = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                wanted.add(new ConsumedOffsets.Position(tp.topic(), tp.partition(), 0));
            }
            Map<TopicPartition, Long> found = new HashMap<>();
            store.load(group, wanted)
                    .forEach((p, next) -> found.put(new TopicPartition(p.topic(), p.partition()), next));
            return found;
        };
    }

    private static Properties common(String servers, Map<String, String> extra) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers);
        p.putAll(extra);
        return p;
    }
}
