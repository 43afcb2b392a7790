package io.lifeline.action.view;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An action as the API and the dashboard show it.
 *
 * @param id          the action's id (derived from the caller's idempotency key when one was given)
 * @param requestedBy who asked: a token's actor name, or {@code policy:<name>}
 * @param deadline    when the action must be done by (null if it has none)
 * @param outcome     a sentence saying how it ended, or what it waits for
 */
public record ActionView(
        String id,
        ActionKind kind,
        String target,
        Map<String, String> params,
        String reason,
        String requestedBy,
        ActionState state,
        Instant createdAt,
        Instant updatedAt,
        Instant deadline,
        Impact impact,
        List<ActionStepView> steps,
        String outcome) {

    public ActionView {
        params = Map.copyOf(params);
        steps = List.copyOf(steps);
    }
}
