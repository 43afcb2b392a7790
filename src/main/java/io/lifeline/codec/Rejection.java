package io.lifeline.codec;

/**
 * Why one event of a request or record was not accepted.
 *
 * @param index   position in the batch (0 for a single event; the line number minus one for NDJSON)
 * @param id      the event's id when it could be read, else null
 * @param reason  what is wrong, naming the field
 */
public record Rejection(int index, String id, String reason) {
}
