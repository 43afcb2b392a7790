package io.lifeline.connector.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Why one item of a connector input (an array element, a line, a document) or one event made of it was dropped.
 *
 * @param index   position of the item in the input (0 for a single document; the line number minus one for lines)
 * @param id      the id of the event when it was an event that was dropped, else null
 * @param reason  a short stable code ({@code unknown_instance}, {@code malformed_json}, {@code time_in_future}, ...)
 * @param detail  what was wrong, naming the field or value
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ItemError(int index, String id, String reason, String detail) {
}
