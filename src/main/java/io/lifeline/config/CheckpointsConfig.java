package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * Where checkpoints are stored ({@code lifeline.checkpoints.*}); documented in docs/configuration.md. Object storage
 * locations (s3://, gs://, ...) are known to outlive a node; a local path is durable only under a shared file system
 * named here.
 */
@ConfigMapping(prefix = "lifeline.checkpoints")
public interface CheckpointsConfig {

    /**
     * A checkpoint saved after a loss above this many times the median of the job's recent losses is suspect: a restore
     * takes it only when told to (docs/checkpoints.md).
     */
    @WithDefault("10")
    double suspectLossFactor();

    /** Mount points of shared file systems (for example {@code /mnt/shared,/fsx}): checkpoints below them survive a node. */
    Optional<List<String>> sharedPaths();
}
