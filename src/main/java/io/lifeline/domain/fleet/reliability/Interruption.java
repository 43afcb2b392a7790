package io.lifeline.domain.fleet.reliability;

import java.time.Instant;

/**
 * One interruption of a node: the evidence behind its counts.
 *
 * @param time    when it happened (event time)
 * @param cause   why
 * @param detail  what the event said (a reason, an XID, the notice's provider), may be null
 */
public record Interruption(Instant time, InterruptionCause cause, String detail) {}
