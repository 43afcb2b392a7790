package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoint storage targets ({@code lifeline.storage.*}); documented in docs/configuration.md and
 * docs/checkpoints.md.
 */
@ConfigMapping(prefix = "lifeline.storage")
public interface StorageConfig {

    /** Checkpoints of each job a target is taken to keep (the newest): the older ones count as rotated out. */
    @WithDefault("3")
    int retentionCheckpoints();

    /** Storage roots to group locations by (mount points, {@code s3://bucket/prefix}), before the built-in rule. */
    Optional<List<String>> roots();

    /** The storage-filling alert fires when a target would be full within this time at the current write rate. */
    @WithDefault("24h")
    Duration alertBefore();

    /** A job that has not saved for this long (nor for three of its intervals) no longer counts as writing. */
    @WithDefault("6h")
    Duration idleAfter();
}
