package io.lifeline.domain.replay;

import io.lifeline.domain.event.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Lifeline's own stored history as a trace: the events of the event log are catalogue events already, so reading
 * them is keeping those of the wanted jobs (and node terminations and notices, which reach jobs as signals) in time
 * order (the log's order within one time).
 */
public final class LifelineHistory {

    private LifelineHistory() {}

    /**
     * The trace of {@code events} (decoded from the log or from a file of CloudEvents).
     *
     * @param events    the events in stored order
     * @param rejected  what the decoder refused
     */
    public static Trace trace(List<Event> events, List<TraceRejection> rejected) {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparing(Event::time));
        return new Trace(TraceFormat.LIFELINE, sorted, rejected);
    }
}
