package io.lifeline.domain.fleet;

import java.time.Instant;

/**
 * The newest external health check of a node's current life.
 *
 * @param time    when it ran (event time)
 * @param passed  whether it passed
 * @param detail  what it found (and what ran it), may be null
 */
public record HealthCheck(Instant time, boolean passed, String detail) {}
