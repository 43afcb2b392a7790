package io.lifeline.connector.inbound.kube;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Collects what watchers send, for tests that run them without the application. */
final class Captured {

    private final List<Event> events = new ArrayList<>();
    final KubeContext ctx = new KubeContext("test", Clock.systemUTC(), (connector, evs) -> add(evs), null);

    private synchronized void add(List<Event> evs) {
        events.addAll(evs);
    }

    synchronized List<Event> all() {
        return List.copyOf(events);
    }

    synchronized List<Event> of(EventType type) {
        return events.stream().filter(e -> e.type() == type).toList();
    }

    synchronized List<Event> of(String subject, EventType type) {
        return events.stream()
                .filter(e -> e.subject().equals(subject) && e.type() == type)
                .toList();
    }
}
