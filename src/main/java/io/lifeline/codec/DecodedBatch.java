package io.lifeline.codec;

import io.lifeline.domain.event.Event;
import java.util.List;

/**
 * The outcome of decoding a request body: the valid events, in order, and a rejection per invalid one.
 *
 * @param events      valid events
 * @param positions   position of each valid event in the body (parallel to {@code events})
 * @param rejections  invalid events with their reasons
 */
public record DecodedBatch(List<Event> events, List<Integer> positions, List<Refusal> rejections) {

    public int total() {
        return events.size() + rejections.size();
    }
}
