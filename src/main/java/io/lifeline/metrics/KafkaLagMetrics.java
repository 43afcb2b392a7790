package io.lifeline.metrics;

import io.lifeline.config.KafkaConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * {@code lifeline_ingest_kafka_consumer_lag_records{topic}}: records the ingest consumer has not read yet, summed
 * over the partitions it owns, per ingest topic. Read from the consumer's own per-partition {@code records-lag}
 * metric, which the Kafka client publishes through JMX (its default reporter) under a client id that starts with
 * {@code consumer-<group>-}; no extra call to the brokers. Without Kafka ingest (or before the first fetch) the
 * value is 0. Topics come from configuration, so the series count is fixed.
 */
@Startup
@ApplicationScoped
public class KafkaLagMetrics {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String clientPrefix;

    KafkaLagMetrics(KafkaConfig config, MeterRegistry registry) {
        this.clientPrefix = "consumer-" + config.groupId() + "-";
        for (String topic : config.topics()) {
            Gauge.builder("lifeline_ingest_kafka_consumer_lag_records", this, m -> m.lag(topic)).tag("topic", topic)
                    .description("Records of the topic the ingest consumer has not read yet (sum over its partitions)")
                    .register(registry);
        }
    }

    /** Sum of the ingest consumer's per-partition lag for {@code topic}. */
    double lag(String topic) {
        double[] sumAndCount = read(topic);
        return sumAndCount[0];
    }

    /** Partitions of {@code topic} the ingest consumer reports a lag for (0 before its first fetch or without Kafka). */
    int partitionsReported(String topic) {
        return (int) read(topic)[1];
    }

    private double[] read(String topic) {
        try {
            // Kafka's JMX reporter quotes a value only when it has characters an object name does not allow as is.
            String value = topic.matches("[\\w\\-%. \t]*") ? topic : ObjectName.quote(topic);
            Set<ObjectName> names = server.queryNames(new ObjectName(
                    "kafka.consumer:type=consumer-fetch-manager-metrics,topic=" + value + ",*"), null);
            double sum = 0;
            int partitions = 0;
            for (ObjectName n : names) {
                String client = n.getKeyProperty("client-id");
                if (client == null || !client.startsWith(clientPrefix) || n.getKeyProperty("partition") == null) {
                    continue;
                }
                Object v = server.getAttribute(n, "records-lag");
                if (v instanceof Number num && !Double.isNaN(num.doubleValue())) {
                    sum += num.doubleValue();
                    partitions++;
                }
            }
            return new double[] {sum, partitions};
        } catch (JMException | RuntimeException e) {
            return new double[] {Double.NaN, 0};
        }
    }
}
