package io.lifeline.action;

import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.page.Page;
import io.lifeline.security.identity.Caller;
import java.util.Optional;

/**
 * The one door to actions, for the REST API, the dashboard and policies alike. Access is checked here too
 * (a namespace-scoped operator acts on its namespaces' jobs only; node actions need a fleet-wide operator), so no
 * caller can skip it.
 */
public interface ActionService {

    /**
     * What the action would do and cost, without doing it.
     *
     * @throws ActionRejectedException if the planner refuses it (the exception names the field)
     * @throws io.lifeline.security.identity.AccessDeniedException if the caller may not act on the target
     */
    Impact dryRun(ActionRequest request, Caller caller);

    /**
     * Accepts an action for execution. With an idempotency key, the same key (for the same caller) returns the
     * action created first, {@link Submitted#replayed()} true, whatever the body.
     */
    Submitted submit(ActionRequest request, Caller caller, String idempotencyKey);

    Optional<ActionView> find(String id);

    Page<ActionView> list(ActionQuery query);

    /** Cancels a pending or running action; steps already done stay done. A finished action is returned as is. */
    ActionView cancel(String id, Caller caller);
}
