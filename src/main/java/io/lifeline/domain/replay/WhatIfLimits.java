package io.lifeline.domain.replay;

/**
 * Bounds of one what-if.
 *
 * @param maxScenarios               most scenarios one request may ask for
 * @param maxEventsPerScenario       most events one scenario may replay (a small interval over a long window is refused)
 * @param defaultCheckpointCostSeconds  C when neither the request nor the job's measurements give one
 */
public record WhatIfLimits(int maxScenarios, long maxEventsPerScenario, double defaultCheckpointCostSeconds) {

    public static final WhatIfLimits DEFAULTS = new WhatIfLimits(24, 2_000_000, 60);
}
