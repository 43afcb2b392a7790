package io.lifeline.ui;

import com.vaadin.flow.shared.Registration;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionService;
import io.lifeline.action.AuditLog;
import io.lifeline.action.Submitted;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.Impact;
import io.lifeline.domain.page.Page;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.platform.Threads;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.lifeline.security.identity.Caller;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The dashboard's door to {@link ActionService} and {@link AuditLog}: every call runs off the UI thread (they may
 * wait on the database or the cluster) and completes a future the view pushes from. When no implementation is
 * deployed the dashboard still starts and says "actions unavailable".
 *
 * <p>Every read is made for the signed-in caller and limited to its {@link Scope}, as {@code /api/v1/actions} and
 * {@code /api/v1/audit} are: actions on its jobs and on the nodes hosting them, and their audit entries; any other
 * action is not found.
 */
@ApplicationScoped
public class ActionsGateway {

    private final Supplier<ActionService> actions;
    private final Supplier<AuditLog> audit;
    private final Function<Scope, Set<String>> nodesUsed;
    private final Supplier<io.lifeline.policy.AutomationBrakeService> brake;
    private final ExecutorService pool;
    private final ScheduledExecutorService ticker;

    @Inject
    ActionsGateway(
            Instance<ActionService> actions,
            Instance<AuditLog> audit,
            Visibility visibility,
            Instance<io.lifeline.policy.AutomationBrakeService> brake) {
        this(
                () -> actions.isResolvable() ? actions.get() : null,
                () -> audit.isResolvable() ? audit.get() : null,
                visibility::nodesUsed,
                () -> brake.isResolvable() ? brake.get() : null);
    }

    /** A gateway over given services (null when absent), for tests and tools: a scoped caller sees no node here. */
    public ActionsGateway(Supplier<ActionService> actions, Supplier<AuditLog> audit) {
        this(actions, audit, scope -> scope.isEverything() ? null : Set.of());
    }

    /**
     * A gateway over given services; {@code nodesUsed} tells the nodes a scope may see (null: every node), as
     * {@link Visibility#nodesUsed} does.
     */
    public ActionsGateway(
            Supplier<ActionService> actions, Supplier<AuditLog> audit, Function<Scope, Set<String>> nodesUsed) {
        this(actions, audit, nodesUsed, () -> null);
    }

    private ActionsGateway(
            Supplier<ActionService> actions,
            Supplier<AuditLog> audit,
            Function<Scope, Set<String>> nodesUsed,
            Supplier<io.lifeline.policy.AutomationBrakeService> brake) {
        this.actions = actions;
        this.audit = audit;
        this.nodesUsed = nodesUsed;
        this.brake = brake;
        this.pool = Executors.newFixedThreadPool(2, Threads.daemon("lifeline-ui-actions"));
        this.ticker = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-ui-action-watch"));
    }

    /**
     * Reads an action about once a second and hands each changed view to {@code listener} (on a worker thread),
     * until it reaches a terminal state or the registration is removed; nothing when {@code caller} may not see it.
     */
    public Registration watch(Caller caller, String id, Consumer<ActionView> listener) {
        AtomicReference<ActionView> last = new AtomicReference<>();
        AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
        task.set(ticker.scheduleWithFixedDelay(
                () -> {
                    try {
                        Optional<ActionView> v = visible(Scope.of(caller), id);
                        if (v.isPresent() && !v.get().equals(last.get())) {
                            last.set(v.get());
                            listener.accept(v.get());
                        }
                        if (v.isEmpty() || v.get().state().terminal()) {
                            task.get().cancel(false);
                        }
                    } catch (RuntimeException e) {
                        task.get().cancel(false);
                    }
                },
                0,
                1,
                TimeUnit.SECONDS));
        return () -> task.get().cancel(false);
    }

    /** Whether actions can be planned and run here. */
    public boolean available() {
        return actions.get() != null;
    }

    public boolean auditAvailable() {
        return audit.get() != null;
    }

    public CompletableFuture<Impact> dryRun(ActionRequest request, Caller caller) {
        return call(() -> service().dryRun(request, caller));
    }

    /**
     * What the automation brake would do with a policy's decision to take the node of {@code request} now, in words,
     * as a drain's dry run over the API says it; empty for other kinds, or when there is no brake here.
     */
    public CompletableFuture<Optional<String>> brakePreview(ActionRequest request) {
        io.lifeline.policy.AutomationBrakeService b = brake.get();
        if (b == null || !io.lifeline.domain.policy.AutomationBrake.takesNode(request)) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return call(() -> {
            io.lifeline.domain.policy.AutomationBrake.Outcome o =
                    b.preview(request.target()).outcome();
            return Optional.of(o.verdict().wire() + ": " + o.reason()
                    + (o.verdict() == io.lifeline.domain.policy.AutomationBrake.Verdict.TRIPPED
                            ? ": a policy's drain of it now would engage the brake"
                            : ""));
        });
    }

    public CompletableFuture<Submitted> submit(ActionRequest request, Caller caller, String idempotencyKey) {
        return call(() -> service().submit(request, caller, idempotencyKey));
    }

    /** The action, if {@code caller} may see it: one aimed at a job in its scope or a node hosting one. */
    public CompletableFuture<Optional<ActionView>> find(Caller caller, String id) {
        return call(() -> visible(Scope.of(caller), id));
    }

    /** The actions of {@code query} that {@code caller} may see, filtered in the query (so a page is full). */
    public CompletableFuture<Page<ActionView>> list(Caller caller, ActionQuery query) {
        return call(() -> {
            Scope scope = Scope.of(caller);
            ActionQuery q = scope.isEverything()
                    ? query
                    : new ActionQuery(
                            query.kind(),
                            query.state(),
                            query.target(),
                            query.requestedBy(),
                            query.from(),
                            query.to(),
                            query.limit(),
                            query.cursor(),
                            scope.namespaces(),
                            nodesUsed.apply(scope));
            return service().list(q);
        });
    }

    /** Cancels the action; one {@code caller} may not see is not found. */
    public CompletableFuture<ActionView> cancel(String id, Caller caller) {
        return call(() -> {
            if (visible(Scope.of(caller), id).isEmpty()) throw new ActionNotFoundException(id);
            return service().cancel(id, caller);
        });
    }

    /** The audit entries of {@code query} that {@code caller} may see (those of the actions it may see). */
    public CompletableFuture<Page<AuditEntry>> audit(Caller caller, AuditQuery query) {
        return call(() -> {
            AuditLog log = audit.get();
            if (log == null) {
                throw new IllegalStateException("the audit log is not available in this deployment");
            }
            Scope scope = Scope.of(caller);
            AuditQuery q = scope.isEverything()
                    ? query
                    : new AuditQuery(
                            query.actor(),
                            query.what(),
                            query.target(),
                            query.actionId(),
                            query.from(),
                            query.to(),
                            query.limit(),
                            query.cursor(),
                            scope.namespaces(),
                            nodesUsed.apply(scope));
            return log.query(q);
        });
    }

    private Optional<ActionView> visible(Scope scope, String id) {
        Optional<ActionView> a = service().find(id);
        if (scope.isEverything() || a.isEmpty()) {
            return a;
        }
        return scope.allowsTarget(a.get().target(), nodesUsed.apply(scope)) ? a : Optional.empty();
    }

    private ActionService service() {
        ActionService s = actions.get();
        if (s == null) {
            throw new IllegalStateException("actions are not available in this deployment");
        }
        return s;
    }

    private <T> CompletableFuture<T> call(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, pool);
    }

    /** The message of a failed call, without the wrapping of the future. */
    public static String message(Throwable t) {
        Throwable c = t;
        while ((c instanceof java.util.concurrent.CompletionException
                        || c instanceof java.util.concurrent.ExecutionException)
                && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof io.lifeline.action.ActionRejectedException r && r.field() != null) {
            return r.field() + ": " + r.getMessage();
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
        ticker.shutdownNow();
    }
}
