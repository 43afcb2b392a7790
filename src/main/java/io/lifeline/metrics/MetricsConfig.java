package io.lifeline.metrics;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Metrics settings ({@code lifeline.metrics.*}); documented in docs/operations.md. */
@ConfigMapping(prefix = "lifeline.metrics")
public interface MetricsConfig {

    /** How often the model-derived series are recomputed from one snapshot of the model. */
    @WithDefault("5s")
    Duration snapshotInterval();

    /** How long one snapshot may wait for the model thread before the previous values stay published. */
    @WithDefault("10s")
    Duration snapshotTimeout();

    /** Whether {@code lifeline_job_node_info{job_name,node}} is published (one series per node a job runs on). */
    @WithDefault("true")
    boolean jobNodeInfoEnabled();

    /**
     * Jobs of one namespace with series of their own ({@code lifeline_job_*}) at most; the rest are counted in the
     * fleet-wide series only ({@code lifeline_metrics_jobs_without_series} says how many). Jobs that have not ended
     * come first.
     */
    @WithDefault("200")
    int maxJobSeriesPerNamespace();

    /**
     * Jobs with series of their own at most, all namespaces together. A job's series take about 5 KB of the
     * exposition ({@code ModelFloodTest}): 1,000 jobs keep a scrape near 5 MB.
     */
    @WithDefault("1000")
    int maxJobSeries();
}
