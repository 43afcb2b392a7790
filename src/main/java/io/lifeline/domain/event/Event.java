package io.lifeline.domain.event;

import java.time.Instant;
import java.util.Objects;

/**
 * One validated event: the CloudEvents attributes Lifeline uses plus its typed data.
 *
 * <p>{@code id} and {@code source} identify it (duplicates are dropped); {@code subject} is the
 * job or node it is about; {@code time} is when it happened at the source, which is what the
 * model orders by within a subject.
 *
 * @param id       CloudEvents id, unique per source
 * @param source   CloudEvents source (a URI reference)
 * @param type     catalogue type
 * @param subject  job name ({@code namespace/name}) or node name
 * @param time     when it happened at the source
 * @param data     typed payload, whose class matches {@code type}
 */
public record Event(String id, String source, EventType type, String subject, Instant time, EventData data) {

    public Event {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    /** Whether this event is high-rate telemetry (not stored row by row). */
    public boolean isTelemetry() {
        return type.isTelemetry();
    }
}
