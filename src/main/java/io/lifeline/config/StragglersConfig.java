package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How stragglers are found from the ranks' step times ({@code lifeline.stragglers.*}); see docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.stragglers")
public interface StragglersConfig {

    /** Length of the windows the ranks' reports are compared in (event time); longer than the agents' interval. */
    @WithDefault("30s")
    Duration window();

    /** A rank is slow in a window only when at least this fraction slower than the median of its peers. */
    @WithDefault("0.2")
    double minExcess();

    /** ... and more than this many robust standard deviations (1.4826 × MAD) of its peers above their median. */
    @WithDefault("3")
    double madFactor();

    /** Consecutive slow windows before a rank is a straggler. */
    @WithDefault("3")
    int flagAfter();

    /** Consecutive normal (or silent) windows before a straggler is cleared. */
    @WithDefault("3")
    int clearAfter();

    /** Ranks tracked per job (memory bound); reports of further ranks are ignored. */
    @WithDefault("4096")
    int maxRanks();
}
