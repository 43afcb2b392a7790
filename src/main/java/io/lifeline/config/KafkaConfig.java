package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Kafka ingest ({@code lifeline.kafka.*}): on when bootstrap servers are configured. */
@ConfigMapping(prefix = "lifeline.kafka")
public interface KafkaConfig {

    /** Kafka bootstrap servers; Kafka ingest is off when absent. */
    Optional<String> bootstrapServers();

    /** Topics carrying CloudEvents keyed by subject. */
    @WithDefault("lifeline.events")
    List<String> topics();

    /** Dead-letter topic for records that are not valid events. */
    @WithDefault("lifeline.events.dlq")
    String dlqTopic();

    /** Consumer group. */
    @WithDefault("lifeline")
    String groupId();

    /** Records fetched per poll. */
    @WithDefault("5000")
    int maxPollRecords();

    /** Batches submitted but not yet durable, per consumer, before polling pauses. */
    @WithDefault("8")
    int maxInFlightBatches();

    /** Threads decoding a poll's records in parallel; defaults to the number of processors. */
    Optional<Integer> decodeThreads();

    /** Back-off before retrying a batch the pipeline pushed back. */
    @WithDefault("500ms")
    Duration retryBackoff();

    /** Extra client properties (security, SASL, ...), passed to consumer and producer as they are. */
    Map<String, String> properties();
}
