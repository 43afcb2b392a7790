package io.lifeline.domain.job;

import io.lifeline.domain.support.WireEnum;
import java.time.Instant;

/**
 * One line of a job's timeline: a lifecycle event, a node signal, a state transition or an incident boundary.
 * Telemetry (progress) is left out, except the progress that closes an incident.
 *
 * @param seq         order of arrival within the job
 * @param time        when it happened (the event's own time)
 * @param kind        what kind of line
 * @param type        event wire type, signal kind, or transition {@code FROM->TO}
 * @param summary     one human-readable line
 * @param incidentId  the incident it belongs to, or null
 */
public record TimelineEntry(long seq, Instant time, Kind kind, String type, String summary, String incidentId) {

    /** What kind of line. */
    public enum Kind implements WireEnum {
        EVENT,
        SIGNAL,
        TRANSITION,
        INCIDENT_OPENED,
        INCIDENT_CLOSED
    }
}
