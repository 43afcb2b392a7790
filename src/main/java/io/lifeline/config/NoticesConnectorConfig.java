package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Cloud notices and torchelastic lines over Kafka ({@code lifeline.connectors.kafka.*}); on when
 * {@code lifeline.kafka.bootstrap-servers} is set and {@code enabled} is true. Documented in docs/connectors.md.
 */
@ConfigMapping(prefix = "lifeline.connectors.kafka")
public interface NoticesConnectorConfig {

    /** Whether the notices topic is consumed (only ever when Kafka is configured). */
    @WithDefault("true")
    boolean enabled();

    /** Topic carrying provider-format notices and torchelastic lines. */
    @WithDefault("lifeline.notices")
    String topic();

    /** Dead-letter topic for records nothing usable came out of. */
    @WithDefault("lifeline.notices.dlq")
    String dlqTopic();

    /** Consumer group (separate from the event topics' group). */
    @WithDefault("lifeline-notices")
    String groupId();

    /** Records fetched per poll. */
    @WithDefault("500")
    int maxPollRecords();

    /** Back-off before retrying a batch the pipeline pushed back. */
    @WithDefault("500ms")
    Duration retryBackoff();
}
