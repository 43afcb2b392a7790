package io.lifeline.connector.inbound.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lifeline.codec.Refusal;
import java.util.List;

/**
 * What became of a connector input, in the shape of the event API's answer.
 *
 * @param accepted    events new to Lifeline, stored (lifecycle) and queued for the model
 * @param applied     of those, the events the model applied
 * @param duplicates  events already seen (same source and id), accepted and ignored
 * @param rejected    items or events dropped
 * @param errors      why each was dropped
 * @param notApplied  accepted events the model did not apply, each with the item it came from and the reason
 *                    ({@code stale}, {@code expired}, ...)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ConnectorReceipt(
        int accepted, int applied, int duplicates, int rejected, List<Refusal> errors, List<Refusal> notApplied) {

    /** What the OpenAPI document says of a connector endpoint's 200 answer. */
    public static final String DESCRIPTION =
            "What came out of the input: events taken (stored, for lifecycle events) and"
                    + " applied to the model; the items dropped in errors, the events the model did not apply (stale, expired,"
                    + " ...) in notApplied";

    public ConnectorReceipt {
        errors = List.copyOf(errors);
        notApplied = List.copyOf(notApplied);
    }
}
