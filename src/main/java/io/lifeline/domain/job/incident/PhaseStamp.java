package io.lifeline.domain.job.incident;

import java.time.Instant;

/**
 * One step of an incident.
 *
 * @param phase   which step
 * @param time    when it happened (the event's own time)
 * @param node    the node concerned, may be null
 * @param detail  what happened, may be null
 */
public record PhaseStamp(IncidentPhase phase, Instant time, String node, String detail) {}
