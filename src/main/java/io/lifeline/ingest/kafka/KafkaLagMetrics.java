package io.lifeline.ingest.kafka;

import io.lifeline.config.KafkaConfig;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.OffsetStore;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * {@code lifeline_ingest_kafka_consumer_lag_records{topic}}: records of each ingest topic not yet stored, summed over
 * its partitions, measured from the broker (an admin client: each partition's end offset) against the offsets stored
 * with the events (or, for a partition nothing was stored from yet, the group's committed offset, else the start of the
 * partition). So the lag keeps growing while no consumer reads, instead of reading 0 as a dead consumer's own metric
 * would. Refreshed every 10 s off the scrape; NaN while the broker cannot be asked. Topics come from configuration, so
 * the series count is fixed.
 */
@ApplicationScoped
public class KafkaLagMetrics {

    private static final Logger LOG = Logger.getLogger(KafkaLagMetrics.class);
    private static final long REFRESH_SECONDS = 10;

    private final KafkaConfig config;
    private final OffsetStore offsets;
    private final Map<String, Double> lag = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;
    private Admin admin;

    KafkaLagMetrics(KafkaConfig config, OffsetStore offsets, MeterRegistry registry) {
        this.config = config;
        this.offsets = offsets;
        for (String topic : config.topics()) {
            lag.put(topic, 0.0);
            Gauge.builder("lifeline_ingest_kafka_consumer_lag_records", this, m -> m.lag(topic))
                    .tag("topic", topic)
                    .description("Records of the topic not yet stored (end offsets at the broker minus stored offsets)")
                    .register(registry);
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // refresh() catches and logs a failure per topic
    void onOpened(@Observes IngestOpened opened) {
        config.bootstrapServers().ifPresent(servers -> {
            Properties p = new Properties();
            p.put("bootstrap.servers", servers);
            p.putAll(config.properties());
            p.put("default.api.timeout.ms", "5000");
            p.put("request.timeout.ms", "5000");
            admin = Admin.create(p);
            timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-kafka-lag"));
            timer.scheduleWithFixedDelay(this::refresh, 0, REFRESH_SECONDS, TimeUnit.SECONDS);
        });
    }

    /** Records of {@code topic} not stored yet, as of the last refresh. */
    double lag(String topic) {
        return lag.getOrDefault(topic, Double.NaN);
    }

    /** Measures now (the timer does it every 10 s). */
    void refresh() {
        for (String topic : config.topics()) {
            try {
                lag.put(topic, (double) measure(topic));
            } catch (Exception e) {
                lag.put(topic, Double.NaN);
                LOG.debugf("Kafka lag of %s not measured: %s", topic, e.toString());
            }
        }
    }

    private long measure(String topic) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(5, TimeUnit.SECONDS)
                .get(topic);
        List<TopicPartition> partitions = new ArrayList<>();
        d.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        List<ConsumedOffsets.Position> wanted = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            latest.put(tp, OffsetSpec.latest());
            earliest.put(tp, OffsetSpec.earliest());
            wanted.add(new ConsumedOffsets.Position(topic, tp.partition(), 0));
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                admin.listOffsets(latest).all().get(5, TimeUnit.SECONDS);
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts =
                admin.listOffsets(earliest).all().get(5, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(config.groupId())
                .partitionsToOffsetAndMetadata()
                .get(5, TimeUnit.SECONDS);
        Map<TopicPartition, Long> stored = new HashMap<>();
        offsets.load(config.groupId(), wanted)
                .forEach((p, next) -> stored.put(new TopicPartition(p.topic(), p.partition()), next));
        long sum = 0;
        for (TopicPartition tp : partitions) {
            long end = ends.get(tp).offset();
            OffsetAndMetadata c = committed.get(tp);
            long from = stored.containsKey(tp)
                    ? stored.get(tp)
                    : c != null ? c.offset() : starts.get(tp).offset();
            sum += Math.max(0, end - Math.max(from, starts.get(tp).offset()));
        }
        return sum;
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(2));
        }
    }
}
