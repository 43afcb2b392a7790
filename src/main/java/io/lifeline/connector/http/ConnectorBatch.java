package io.lifeline.connector.http;

import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The translations of one connector input, item by item, turned into the events to submit and the errors to
 * report. Not thread-safe: one per request or Kafka poll.
 */
public final class ConnectorBatch {

    private final String connector;
    private final List<Event> events = new ArrayList<>();
    private final List<Integer> positions = new ArrayList<>();
    private final List<ItemError> errors = new ArrayList<>();
    private final BitSet usable = new BitSet();

    public ConnectorBatch(String connector) {
        this.connector = connector;
    }

    public String connector() {
        return connector;
    }

    /** Adds what item {@code index} translated into. */
    public ConnectorBatch add(int index, Translation t) {
        for (Event e : t.events()) {
            events.add(e);
            positions.add(index);
        }
        for (Translation.Rejection r : t.rejections()) {
            errors.add(new ItemError(index, null, r.reason(), r.detail()));
        }
        return this;
    }

    /** Adds an error found before translation (an item that could not even be handed to a translator). */
    public ConnectorBatch error(int index, String reason, String detail) {
        errors.add(new ItemError(index, null, reason, detail));
        return this;
    }

    /** Whether item {@code index} gave at least one event that passed the pipeline's checks. */
    public boolean usable(int index) {
        return usable.get(index);
    }

    void markUsable(int index) {
        usable.set(index);
    }

    List<Event> events() {
        return events;
    }

    List<Integer> positions() {
        return positions;
    }

    List<ItemError> errors() {
        return errors;
    }
}
