package io.lifeline.connector.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What became of a connector input, in the shape of the event API's answer.
 *
 * @param accepted    events new to Lifeline, stored (lifecycle) and applied
 * @param duplicates  events already seen (same source and id), accepted and ignored
 * @param rejected    items or events dropped
 * @param errors      why each was dropped
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ConnectorReceipt(int accepted, int duplicates, int rejected, List<ItemError> errors) {

    public ConnectorReceipt {
        errors = List.copyOf(errors);
    }
}
