package io.lifeline.action;

import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionPlanner;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.action.PlanResult;
import io.lifeline.domain.page.Page;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Checks access, plans against the live model, persists, and hands the action to the executor. Accepting an
 * action is one model read (none when the caller planned on the model's thread) and one insert; the work happens on
 * the executor's threads.
 */
@ApplicationScoped
public class DefaultActionService implements ActionService, AuditLog {

    private static final Pattern KEY = Pattern.compile("[\\x21-\\x7e]{1,128}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ActionStore store;
    private final ActionExecutor executor;
    private final ModelRuntime runtime;
    private final Clock clock;

    DefaultActionService(ActionStore store, ActionExecutor executor, ModelRuntime runtime, Clock clock) {
        this.store = store;
        this.executor = executor;
        this.runtime = runtime;
        this.clock = clock;
    }

    @Override
    public Impact dryRun(ActionRequest request, Caller caller) {
        requireMayAct(request, caller);
        return plan(request).plan().impact();
    }

    @Override
    public Submitted submit(ActionRequest request, Caller caller, String idempotencyKey) {
        return submit(request, caller, idempotencyKey, null);
    }

    /**
     * Like {@link #submit(ActionRequest, Caller, String)}, with a plan the caller made on the model's thread (a policy
     * reacting to an event just applied): it saves a round trip through the model's queue, which under heavy ingest
     * is the slowest part of accepting an action. A refused plan is rejected as {@code submit} would reject it.
     */
    public Submitted submitPlanned(ActionRequest request, PlanResult planned, Caller caller, String idempotencyKey) {
        return submit(request, caller, idempotencyKey, planned);
    }

    private Submitted submit(ActionRequest request, Caller caller, String idempotencyKey, PlanResult given) {
        requireMayAct(request, caller);
        if (idempotencyKey != null && !KEY.matcher(idempotencyKey).matches()) {
            throw new ActionRejectedException("Idempotency-Key", "1 to 128 visible ASCII characters");
        }
        String requester = caller.actor();
        try {
            if (idempotencyKey != null && given == null) {
                // The same key answers what it answered first, even if the target has changed since. (A policy's
                // planned request skips this look-up: its insert finds an earlier action with the same key anyway.)
                Optional<ActionView> earlier = store.find(idFor(requester, idempotencyKey));
                if (earlier.isPresent()) {
                    return new Submitted(earlier.get(), true);
                }
            }
            PlanResult planned = given != null ? checked(given) : plan(request);
            String id = idempotencyKey != null ? idFor(requester, idempotencyKey) : randomId();
            ActionStore.Inserted r = store.insert(new ActionStore.NewAction(
                    id,
                    request.kind(),
                    request.target(),
                    planned.plan().request().params(),
                    request.reason(),
                    requester,
                    idempotencyKey,
                    clock.instant(),
                    planned.plan().deadline(),
                    planned.plan().impact(),
                    ActionState.PENDING,
                    "waiting for the executor"));
            switch (r.kind()) {
                case CREATED:
                    executor.schedule(r.action());
                    return new Submitted(r.action(), false);
                case REPLAYED:
                    return new Submitted(r.action(), true);
                default:
                    throw new TargetBusyException(r.action());
            }
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable; nothing was accepted", e);
        }
    }

    /**
     * Records a policy decision taken in dry-run mode: visible and audited like any action, finished at once, and
     * holding no lock.
     */
    public ActionView recordDryRun(ActionRequest request, String requester, String idempotencyKey) {
        PlanResult planned = plan(request);
        try {
            String id = idFor(requester, idempotencyKey);
            Optional<ActionView> earlier = store.find(id);
            if (earlier.isPresent()) {
                return earlier.get();
            }
            return store.insert(new ActionStore.NewAction(
                            id,
                            request.kind(),
                            request.target(),
                            planned.plan().request().params(),
                            request.reason(),
                            requester,
                            idempotencyKey,
                            clock.instant(),
                            planned.plan().deadline(),
                            planned.plan().impact(),
                            ActionState.SUCCEEDED,
                            "dry run: policy would " + request.kind().wire() + " " + request.target()))
                    .action();
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable", e);
        }
    }

    /**
     * Records a policy decision that waits (its target cannot obey yet, or the policy backs off) as a finished action
     * whose outcome is {@code skipped: <reason>}, like a dry run: visible and audited, nothing done, no plan made (the
     * planner may well refuse a target that is not ready) and no lock held. The same key records once.
     */
    public ActionView recordSkipped(ActionRequest request, String requester, String idempotencyKey, String reason) {
        return recordNotDone(request, requester, idempotencyKey, "skipped: " + reason);
    }

    /**
     * Records a policy decision that the automation brake holds as a finished action whose outcome is
     * {@code held: <reason>}, the same way as {@link #recordSkipped}: visible and audited, nothing done, no lock held.
     */
    public ActionView recordHeld(ActionRequest request, String requester, String idempotencyKey, String reason) {
        return recordNotDone(request, requester, idempotencyKey, "held: " + reason);
    }

    private ActionView recordNotDone(ActionRequest request, String requester, String idempotencyKey, String outcome) {
        try {
            String id = idFor(requester, idempotencyKey);
            Optional<ActionView> earlier = store.find(id);
            if (earlier.isPresent()) {
                return earlier.get();
            }
            Instant now = clock.instant();
            Impact none = new Impact(0, null, 0, java.util.List.of(), java.util.List.of(), true, java.util.List.of());
            return store.insert(new ActionStore.NewAction(
                            id,
                            request.kind(),
                            request.target(),
                            request.params(),
                            request.reason(),
                            requester,
                            idempotencyKey,
                            now,
                            now,
                            none,
                            ActionState.SUCCEEDED,
                            outcome))
                    .action();
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable", e);
        }
    }

    @Override
    public Optional<ActionView> find(String id) {
        try {
            return store.find(id);
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable", e);
        }
    }

    @Override
    public Page<ActionView> list(ActionQuery query) {
        try {
            return store.list(query);
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable", e);
        }
    }

    @Override
    public ActionView cancel(String id, Caller caller) {
        try {
            ActionView a = store.find(id).orElseThrow(() -> new ActionNotFoundException(id));
            requireMayAct(new ActionRequest(a.kind(), a.target(), a.params(), a.reason()), caller);
            if (a.state().terminal()) {
                return a;
            }
            store.requestCancel(id);
            store.audit(new AuditEntry(
                    0,
                    clock.instant(),
                    caller.actor(),
                    "action.cancel_requested",
                    a.target(),
                    id,
                    null,
                    a.state().wire(),
                    "cancel requested"));
            if (a.state() == ActionState.PENDING) {
                store.transition(
                        id,
                        ActionState.PENDING,
                        ActionState.CANCELLED,
                        "cancelled by " + caller.actor(),
                        caller.actor(),
                        clock.instant());
            }
            return store.find(id).orElseThrow();
        } catch (StoreUnavailableException e) {
            throw unavailable("the action store is unavailable", e);
        }
    }

    @Override
    public Page<AuditEntry> query(AuditQuery query) {
        try {
            return store.audit(query);
        } catch (StoreUnavailableException e) {
            throw unavailable("the audit log is unavailable", e);
        }
    }

    private PlanResult plan(ActionRequest request) {
        Instant now = clock.instant();
        PlanResult r;
        try {
            r = runtime.read(m -> new ActionPlanner(m.jobs(), m.fleet()).plan(request, now))
                    .get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ActionsUnavailableException("interrupted while planning", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new ActionsUnavailableException("the model did not answer in time; retry", e);
        }
        return checked(r);
    }

    private static PlanResult checked(PlanResult r) {
        if (!r.ok()) {
            throw new ActionRejectedException(r.field(), r.reason());
        }
        return r;
    }

    /** The role first, then the target's scope: node actions need a fleet-wide operator. */
    static void requireMayAct(ActionRequest request, Caller caller) {
        if (!caller.has(Role.OPERATOR)) {
            throw new AccessDeniedException("actions need the operator role");
        }
        if (request.kind().targetKind() == ActionKind.TargetKind.NODE) {
            caller.requireActOnNodes();
        } else {
            int slash = request.target().indexOf('/');
            caller.requireActOnNamespace(
                    slash < 0 ? request.target() : request.target().substring(0, slash));
        }
    }

    static String idFor(String requester, String key) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256")
                    .digest((requester + "\n" + key).getBytes(StandardCharsets.UTF_8));
            return "act-" + HexFormat.of().formatHex(h, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String randomId() {
        byte[] b = new byte[10];
        RANDOM.nextBytes(b);
        return "act-" + HexFormat.of().formatHex(b);
    }

    /** The store's failure in this service's words; a failure already in them (the model did not answer) as it is. */
    private static ActionsUnavailableException unavailable(String what, StoreUnavailableException e) {
        return e instanceof ActionsUnavailableException a ? a : new ActionsUnavailableException(what, e);
    }
}
