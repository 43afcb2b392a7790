package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of the in-memory model's host ({@code lifeline.model.*}); documented in docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.model")
public interface ModelConfig {

    /**
     * How often the model thread publishes one immutable snapshot of the whole model, which the dashboards, the
     * metrics and the alert rules read without touching the model thread.
     */
    @WithDefault("1s")
    Duration snapshotInterval();

    /**
     * How often the model thread saves the whole model as a checkpoint in PostgreSQL (also once the start-up replay is
     * done and at shutdown), so that a start restores it and replays only the events after it.
     */
    @WithDefault("5m")
    Duration checkpointInterval();

    /** How many model checkpoints are kept; older ones are deleted when a new one is written. */
    @WithDefault("3")
    int checkpointsKept();

    /** Whether start-up restores the newest model checkpoint; false replays the whole stored log instead. */
    @WithDefault("true")
    boolean startFromCheckpoint();
}
