package io.lifeline.domain.replay;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the events a reader makes, with ids unique within the trace (the model drops a repeated source and id as
 * a redelivery) and one source per trace format.
 */
final class TraceEvents {

    private final String source;
    private final List<Event> events = new ArrayList<>();
    private long ids;

    TraceEvents(TraceFormat format) {
        this.source = "replay://" + format.wire();
    }

    void add(String subject, Instant at, EventType type, EventData data) {
        events.add(new Event("r" + (++ids), source, type, subject, at, data));
    }

    List<Event> events() {
        return events;
    }
}
