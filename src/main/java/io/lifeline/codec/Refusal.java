package io.lifeline.codec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One item of a batch that was refused or not applied, with why: the one shape of every per-item answer ({@code errors}
 * and {@code notApplied} of the event API and the connector endpoints) and of every refusal handed between the codec,
 * the store and the ingest gateway.
 *
 * @param index   position of the item in its batch (0 for a single event or document; the line number minus one for
 *                lines); a stage that works on part of a batch answers its own positions, {@link #at} moves them
 * @param id      the event's id when it could be read, else null (and absent from the JSON)
 * @param reason  a short stable code ({@code stale}, {@code malformed_json}, {@code time_in_future}, ...) when
 *                {@code detail} is given; otherwise what is wrong in words, naming the field
 * @param detail  with a code: what was wrong or what the model compared the event with; else null (and absent)
 */
public record Refusal(
        int index,
        @JsonInclude(JsonInclude.Include.NON_NULL) String id,
        String reason,
        @JsonInclude(JsonInclude.Include.NON_NULL) String detail) {

    /** A refusal whose reason says it all, in words. */
    public Refusal(int index, String id, String reason) {
        this(index, id, reason, null);
    }

    /** The same refusal at {@code position}, for a stage whose batch was part of a larger one. */
    public Refusal at(int position) {
        return new Refusal(position, id, reason, detail);
    }
}
