package io.lifeline.ui;

import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionService;
import io.lifeline.action.AuditLog;
import io.lifeline.action.Submitted;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.page.Page;
import io.lifeline.security.identity.Caller;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small in-memory action service and audit log for the dialog and view tests (not a CDI bean: the real one stays
 * in place for every other test). An action runs one step per read and succeeds on the second; rescale to 0 workers
 * is refused the way the planner would.
 */
final class FakeActions implements ActionService, AuditLog {

    final Map<String, ActionView> actions = new ConcurrentHashMap<>();
    final Map<String, Integer> reads = new ConcurrentHashMap<>();
    final List<AuditEntry> audit = new ArrayList<>();

    static final Impact IMPACT = new Impact(
            12.5,
            420L,
            128,
            List.of(UiTestSupport.JOB),
            List.of("spot-p5-0001"),
            true,
            List.of("the newest checkpoint is older than the objective"));

    @Override
    public Impact dryRun(ActionRequest request, Caller caller) {
        check(request);
        return IMPACT;
    }

    @Override
    public Submitted submit(ActionRequest request, Caller caller, String idempotencyKey) {
        check(request);
        String id = "act-" + (actions.size() + 1);
        Instant now = Instant.now();
        ActionView v = new ActionView(
                id,
                request.kind(),
                request.target(),
                request.params(),
                request.reason(),
                caller.actor(),
                ActionState.RUNNING,
                now,
                now,
                null,
                IMPACT,
                List.of(new ActionStepView(1, "checkpoint " + request.target(), StepState.RUNNING, now, null, null)),
                "saving");
        actions.put(id, v);
        synchronized (audit) {
            audit.add(new AuditEntry(
                    audit.size() + 1,
                    now,
                    caller.actor(),
                    "action.requested",
                    request.target(),
                    id,
                    request.reason(),
                    null,
                    "pending"));
        }
        return new Submitted(v, false);
    }

    @Override
    public Optional<ActionView> find(String id) {
        ActionView v = actions.get(id);
        if (v == null) {
            return Optional.empty();
        }
        if (reads.merge(id, 1, Integer::sum) >= 2 && !v.state().terminal()) {
            Instant now = Instant.now();
            v = new ActionView(
                    v.id(),
                    v.kind(),
                    v.target(),
                    v.params(),
                    v.reason(),
                    v.requestedBy(),
                    ActionState.SUCCEEDED,
                    v.createdAt(),
                    now,
                    null,
                    v.impact(),
                    List.of(new ActionStepView(
                            1, v.steps().get(0).name(), StepState.DONE, v.createdAt(), now, "saved")),
                    "checkpoint saved");
            actions.put(id, v);
        }
        return Optional.of(v);
    }

    @Override
    public Page<ActionView> list(ActionQuery query) {
        List<ActionView> out = new ArrayList<>();
        for (ActionView v : actions.values()) {
            if ((query.state() == null || query.state() == v.state())
                    && (query.kind() == null || query.kind() == v.kind())) {
                out.add(v);
            }
        }
        out.sort((a, b) -> b.id().compareTo(a.id()));
        return Page.last(out);
    }

    @Override
    public ActionView cancel(String id, Caller caller) {
        ActionView v = actions.get(id);
        ActionView c = new ActionView(
                v.id(),
                v.kind(),
                v.target(),
                v.params(),
                v.reason(),
                v.requestedBy(),
                ActionState.CANCELLED,
                v.createdAt(),
                Instant.now(),
                null,
                v.impact(),
                v.steps(),
                "cancelled");
        actions.put(id, c);
        return c;
    }

    @Override
    public Page<AuditEntry> query(AuditQuery q) {
        synchronized (audit) {
            List<AuditEntry> out = new ArrayList<>();
            for (int i = audit.size() - 1; i >= 0; i--) {
                AuditEntry e = audit.get(i);
                if ((q.actor() == null || e.actor().contains(q.actor()))
                        && (q.what() == null || e.what().equals(q.what()))
                        && (q.target() == null || q.target().equals(e.target()))) {
                    out.add(e);
                }
            }
            return Page.last(out);
        }
    }

    private static void check(ActionRequest r) {
        if ("0".equals(r.params().get("workers"))) {
            throw new ActionRejectedException("params.workers", "must be within the elastic bounds 12..16");
        }
    }

    ActionsGateway gateway() {
        return new ActionsGateway(() -> this, () -> this);
    }
}
