package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Co-location windows and demand triggers ({@code lifeline.colocation.*}); documented in docs/configuration.md and
 * docs/policies.md. Values are checked together at start-up, every mistake named (see
 * {@code domain.policy.colocation.ColocationRules#parse}); the policy's mode is {@code lifeline.policies.mode.colocation}
 * and its overrides, like every policy's.
 */
@ConfigMapping(prefix = "lifeline.colocation")
public interface ColocationConfig {

    /** Time windows by name. */
    Map<String, Window> windows();

    /** Demand triggers by name. */
    Map<String, Demand> demand();

    /** Prometheus' base URL for {@code prometheus-query} triggers (for example {@code http://prometheus:9090}). */
    Optional<String> prometheusUrl();

    /** How long one Prometheus query may take. */
    @WithDefault("5s")
    Duration prometheusTimeout();

    /** How often demand triggers are read. */
    @WithDefault("30s")
    Duration sampleInterval();

    /** A window: weekly ({@code days}, {@code from}, {@code to}, {@code zone}) or a cycle ({@code every}...). */
    interface Window {
        Optional<String> pool();

        Optional<String> days();

        Optional<String> from();

        Optional<String> to();

        Optional<String> zone();

        Optional<String> every();

        Optional<String> openFor();

        Optional<String> starting();
    }

    /** A demand trigger: one of {@code pending-pods} and {@code prometheus-query}, above {@code threshold}. */
    interface Demand {
        Optional<String> pool();

        Optional<String> pendingPods();

        Optional<String> prometheusQuery();

        Optional<String> threshold();

        Optional<String> hold();
    }
}
