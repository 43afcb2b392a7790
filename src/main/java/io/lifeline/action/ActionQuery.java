package io.lifeline.action;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import java.time.Instant;

/** Filters for listing actions; every field may be null. Newest first, keyset-paged by {@code cursor}. */
public record ActionQuery(ActionKind kind, ActionState state, String target, String requestedBy, Instant from,
                          Instant to, int limit, String cursor) {

    public static ActionQuery recent(int limit) {
        return new ActionQuery(null, null, null, null, null, null, limit, null);
    }
}
