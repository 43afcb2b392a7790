package io.lifeline.connector;

import io.lifeline.domain.event.Event;
import java.util.List;
import java.util.Objects;

/**
 * What a translator made of one input (a scrape, a notice document, an event line): the catalogue events it
 * produced and what it had to drop, each with a reason. A translation can be partial (some events and some
 * rejections); an input that says nothing Lifeline tracks yields neither.
 *
 * @param events      events to submit, in the order they happened at the source
 * @param rejections  what was dropped and why
 */
public record Translation(List<Event> events, List<Rejection> rejections) {

    private static final Translation EMPTY = new Translation(List.of(), List.of());

    public Translation {
        events = List.copyOf(events);
        rejections = List.copyOf(rejections);
    }

    /** Nothing to report and nothing wrong. */
    public static Translation empty() {
        return EMPTY;
    }

    /** Events and no rejection. */
    public static Translation of(List<Event> events) {
        return new Translation(events, List.of());
    }

    /** The whole input was refused. */
    public static Translation rejected(String reason, String detail) {
        return new Translation(List.of(), List.of(new Rejection(reason, detail)));
    }

    /** Refused as a whole: no event came out and at least one rejection did. */
    public boolean isRejected() {
        return events.isEmpty() && !rejections.isEmpty();
    }

    /**
     * Why something was dropped.
     *
     * @param reason  a short stable code (snake_case), usable as a metric label
     * @param detail  a human-readable explanation naming the field or value
     */
    public record Rejection(String reason, String detail) {
        public Rejection {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }
    }
}
