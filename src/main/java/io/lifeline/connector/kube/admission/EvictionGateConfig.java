package io.lifeline.connector.kube.admission;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The checkpoint-gated eviction webhook ({@code lifeline.eviction-gate.*}). Documented in docs/connectors.md,
 * "Checkpoint-gated evictions", and docs/configuration.md.
 */
@ConfigMapping(prefix = "lifeline.eviction-gate")
public interface EvictionGateConfig {

    /** Whether {@code POST /admission/v1/evictions} gates evictions; off, it allows every eviction at once. */
    @WithDefault("false")
    boolean enabled();

    /** A job whose newest checkpoint is older than this has its pods' evictions held until it saves one. */
    @WithDefault("15m")
    Duration maxCheckpointAge();

    /** The longest an eviction is held: after it the eviction is allowed, saved or not. */
    @WithDefault("10m")
    Duration holdDeadline();

    /** The longest the webhook waits for the model's answer before it allows the eviction (fails open). */
    @WithDefault("2s")
    Duration readTimeout();
}
