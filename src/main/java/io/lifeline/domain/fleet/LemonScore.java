package io.lifeline.domain.fleet;

import java.time.Duration;
import java.time.Instant;

/**
 * How often a node was interrupted lately: notices, terminations, not-ready episodes and GPU failures (each
 * signal of those kinds counts once) within the sliding window ending now.
 *
 * @param interruptions     count within the window (saturates at the ring's capacity)
 * @param window            the window length
 * @param lastInterruption  the latest one ever retained, null when none
 */
public record LemonScore(int interruptions, Duration window, Instant lastInterruption) {}
