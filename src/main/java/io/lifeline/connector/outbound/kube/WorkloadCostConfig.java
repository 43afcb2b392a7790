package io.lifeline.connector.outbound.kube;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Cost annotations on Kueue Workloads ({@code lifeline.workload-cost.*}), written while the Kubernetes connector is
 * on. Documented in docs/connectors.md, "Connectors out".
 */
@ConfigMapping(prefix = "lifeline.workload-cost")
public interface WorkloadCostConfig {

    /** Whether Workloads get {@code lifeline.io/checkpoint-age-seconds} and {@code lifeline.io/gpu-hours-at-risk}. */
    @WithDefault("true")
    boolean enabled();

    /** How often the Workloads are looked at (only moved figures are written). */
    @WithDefault("1m")
    Duration interval();
}
