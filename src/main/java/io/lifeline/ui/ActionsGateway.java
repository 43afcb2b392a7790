package io.lifeline.ui;

import com.vaadin.flow.shared.Registration;
import io.lifeline.action.ActionPage;
import io.lifeline.action.ActionQuery;
import io.lifeline.action.ActionService;
import io.lifeline.action.ActionView;
import io.lifeline.action.AuditLog;
import io.lifeline.action.AuditPage;
import io.lifeline.action.AuditQuery;
import io.lifeline.action.Submitted;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.action.Impact;
import io.lifeline.security.Caller;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The dashboard's door to {@link ActionService} and {@link AuditLog}: every call runs off the UI thread (they may
 * wait on the database or the cluster) and completes a future the view pushes from. When no implementation is
 * deployed the dashboard still starts and says "actions unavailable".
 */
@ApplicationScoped
public class ActionsGateway {

    private final Supplier<ActionService> actions;
    private final Supplier<AuditLog> audit;
    private final ExecutorService pool;
    private final ScheduledExecutorService ticker;

    @Inject
    ActionsGateway(Instance<ActionService> actions, Instance<AuditLog> audit) {
        this(() -> actions.isResolvable() ? actions.get() : null, () -> audit.isResolvable() ? audit.get() : null);
    }

    /** A gateway over given services (null when absent), for tests and tools. */
    public ActionsGateway(Supplier<ActionService> actions, Supplier<AuditLog> audit) {
        this.actions = actions;
        this.audit = audit;
        this.pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "lifeline-ui-actions");
            t.setDaemon(true);
            return t;
        });
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lifeline-ui-action-watch");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Reads an action about once a second and hands each changed view to {@code listener} (on a worker thread),
     * until it reaches a terminal state or the registration is removed.
     */
    public Registration watch(String id, Consumer<ActionView> listener) {
        AtomicReference<ActionView> last = new AtomicReference<>();
        AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
        task.set(ticker.scheduleWithFixedDelay(() -> {
            try {
                Optional<ActionView> v = service().find(id);
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
        }, 0, 1, TimeUnit.SECONDS));
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

    public CompletableFuture<Submitted> submit(ActionRequest request, Caller caller, String idempotencyKey) {
        return call(() -> service().submit(request, caller, idempotencyKey));
    }

    public CompletableFuture<Optional<ActionView>> find(String id) {
        return call(() -> service().find(id));
    }

    public CompletableFuture<ActionPage> list(ActionQuery query) {
        return call(() -> service().list(query));
    }

    public CompletableFuture<ActionView> cancel(String id, Caller caller) {
        return call(() -> service().cancel(id, caller));
    }

    public CompletableFuture<AuditPage> audit(AuditQuery query) {
        return call(() -> {
            AuditLog log = audit.get();
            if (log == null) {
                throw new IllegalStateException("the audit log is not available in this deployment");
            }
            return log.query(query);
        });
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
                || c instanceof java.util.concurrent.ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof io.lifeline.action.ActionRejectedException r && r.field() != null) {
            return r.field() + ": " + r.getMessage();
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
        ticker.shutdownNow();
    }
}
