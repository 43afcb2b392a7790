package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Bounds of the what-if replays ({@code lifeline.whatif.*}); documented in docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.whatif")
public interface WhatIfConfig {

    /** A what-if still replaying after this long is stopped and answered 422. */
    @WithDefault("10s")
    Duration deadline();

    /** What-ifs replayed at once (each on one thread); a request beyond them is answered 503. */
    @WithDefault("1")
    int maxConcurrent();

    /** Most scenarios one request may ask for. */
    @WithDefault("24")
    int maxScenarios();

    /** Most events one scenario may replay (a short interval over a long window is refused). */
    @WithDefault("2000000")
    long maxEventsPerScenario();

    /** Checkpoint cost assumed when neither the request nor the job's measurements give one (traces record none). */
    @WithDefault("60s")
    Duration defaultCheckpointCost();

    /** Largest trace a request may upload. */
    @WithDefault("8388608")
    int maxTraceBytes();

    /**
     * Most jobs the fleet counterfactual (the ETTR without Lifeline's notice policy) replays: the running ones first,
     * then those that ended most recently.
     */
    @WithDefault("32")
    int counterfactualJobs();

    /** How often the fleet counterfactual is computed again, off every request path. */
    @WithDefault("1m")
    Duration counterfactualRefresh();

    /** Jobs that ended longer ago than this are left out of the fleet counterfactual. */
    @WithDefault("24h")
    Duration counterfactualRecent();
}
