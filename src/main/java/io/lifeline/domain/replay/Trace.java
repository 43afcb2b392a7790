package io.lifeline.domain.replay;

import io.lifeline.domain.event.Event;
import java.util.List;

/**
 * A trace read into catalogue events, in the order they are applied, with the records that were refused.
 *
 * <p>Job, scheduler and trainer events have the job as subject; a node lost under a job is a
 * {@code node.terminated} event with the node as subject ({@link TracePlayer} hands it to the jobs as a signal).
 *
 * @param format    the trace format read
 * @param events    the events, in application order
 * @param rejected  the refused records, with their line and reason
 */
public record Trace(TraceFormat format, List<Event> events, List<TraceRejection> rejected) {

    public Trace {
        events = List.copyOf(events);
        rejected = List.copyOf(rejected);
    }

    /** The distinct job subjects of the trace, in order of first appearance. */
    public List<String> jobs() {
        return events.stream()
                .filter(e -> !e.type().family().subjectIsNode())
                .map(Event::subject)
                .distinct()
                .toList();
    }
}
