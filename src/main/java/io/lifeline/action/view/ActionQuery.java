package io.lifeline.action.view;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import java.time.Instant;
import java.util.Set;

/**
 * Filters for listing actions; every field may be null. Newest first, keyset-paged by {@code cursor}.
 *
 * @param namespaces only actions on jobs in these namespaces or on {@code nodes}; null for every action
 * @param nodes      with {@code namespaces}: the nodes whose actions are also listed
 */
public record ActionQuery(
        ActionKind kind,
        ActionState state,
        String target,
        String requestedBy,
        Instant from,
        Instant to,
        int limit,
        String cursor,
        Set<String> namespaces,
        Set<String> nodes) {

    /** A query over every action. */
    public ActionQuery(
            ActionKind kind,
            ActionState state,
            String target,
            String requestedBy,
            Instant from,
            Instant to,
            int limit,
            String cursor) {
        this(kind, state, target, requestedBy, from, to, limit, cursor, null, null);
    }

    public static ActionQuery recent(int limit) {
        return new ActionQuery(null, null, null, null, null, null, limit, null);
    }
}
