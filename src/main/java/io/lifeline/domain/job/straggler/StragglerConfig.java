package io.lifeline.domain.job.straggler;

import java.time.Duration;

/**
 * How stragglers are told apart from noise.
 *
 * @param window      ranks' step-time reports are compared per window of this length, in event time (default 30 s)
 * @param minExcess   a rank is slow in a window only when its step time exceeds its peers' median by at least this
 *                    fraction (default 0.2: 20 % slower)
 * @param madFactor   ... and by more than this many robust standard deviations of its peers (1.4826 × MAD;
 *                    default 3)
 * @param flagAfter   consecutive slow windows before a rank is a straggler (default 3)
 * @param clearAfter  consecutive normal (or silent) windows before a straggler is cleared (default 3)
 * @param maxRanks    ranks tracked per job; reports of further ranks are ignored (default 4096)
 */
public record StragglerConfig(
        Duration window, double minExcess, double madFactor, int flagAfter, int clearAfter, int maxRanks) {

    public StragglerConfig {
        if (window == null || window.toMillis() < 1) {
            throw new IllegalArgumentException("window must be positive");
        }
        if (!(minExcess >= 0) || !(madFactor >= 0)) {
            throw new IllegalArgumentException("minExcess and madFactor must be non-negative numbers");
        }
        if (flagAfter < 1 || clearAfter < 1 || maxRanks < 2) {
            throw new IllegalArgumentException("flagAfter and clearAfter must be at least 1, maxRanks at least 2");
        }
    }

    public static StragglerConfig defaults() {
        return new StragglerConfig(Duration.ofSeconds(30), 0.2, 3.0, 3, 3, 4096);
    }
}
