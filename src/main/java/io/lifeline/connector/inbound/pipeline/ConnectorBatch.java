package io.lifeline.connector.inbound.pipeline;

import io.lifeline.codec.Refusal;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The translations of one connector input, item by item, turned into the events to submit and the errors to
 * report. Not thread-safe: one per request or Kafka poll.
 */
public final class ConnectorBatch {

    private final String connector;
    private final List<Event> events = new ArrayList<>();
    private final List<Integer> positions = new ArrayList<>();
    private final List<Refusal> errors = new ArrayList<>();
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
            errors.add(new Refusal(index, null, r.reason(), r.detail()));
        }
        return this;
    }

    /** Adds an error found before translation (an item that could not even be handed to a translator). */
    public ConnectorBatch error(int index, String reason, String detail) {
        errors.add(new Refusal(index, null, reason, detail));
        return this;
    }

    /**
     * Takes out the events {@code refusal} names a reason for (it answers {@code null} for an event to keep), each
     * reported as an error with {@code code}; returns how many were taken out.
     */
    public int withhold(Function<Event, String> refusal, String code) {
        int n = 0;
        for (int i = events.size() - 1; i >= 0; i--) {
            String reason = refusal.apply(events.get(i));
            if (reason != null) {
                errors.add(new Refusal(positions.get(i), events.get(i).id(), code, reason));
                events.remove(i);
                positions.remove(i);
                n++;
            }
        }
        return n;
    }

    /** Whether item {@code index} gave at least one event that passed the pipeline's checks. */
    public boolean usable(int index) {
        return usable.get(index);
    }

    void markUsable(int index) {
        usable.set(index);
    }

    /** The events to submit, in order (read-only). */
    public List<Event> events() {
        return Collections.unmodifiableList(events);
    }

    List<Integer> positions() {
        return positions;
    }

    public List<Refusal> errors() {
        return errors;
    }
}
