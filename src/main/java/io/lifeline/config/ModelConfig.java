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
}
