package io.lifeline.ui;

import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.platform.Threads;
import io.lifeline.policy.AutomationBrakeService;
import io.lifeline.security.identity.Caller;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The dashboard's door to the automation brake ({@link AutomationBrakeService}, the same service as
 * {@code /api/v1/policies/brake}): every call runs off the UI thread (it reads the database) and completes a future
 * the view pushes from. The brake concerns nodes every namespace shares: only fleet-wide callers read it, and only
 * fleet-wide operators reset it (checked by the service as well).
 */
@ApplicationScoped
public class BrakeGateway {

    private final Supplier<AutomationBrakeService> brake;
    private final ExecutorService pool = Executors.newSingleThreadExecutor(Threads.daemon("lifeline-ui-brake"));

    @Inject
    BrakeGateway(Instance<AutomationBrakeService> brake) {
        this(() -> brake.isResolvable() ? brake.get() : null);
    }

    /** A gateway over a given service (null when absent), for tests. */
    public BrakeGateway(Supplier<AutomationBrakeService> brake) {
        this.brake = brake;
    }

    /** Whether {@code caller} may see the brake here. */
    public boolean visibleTo(Caller caller) {
        return brake.get() != null && caller.isFleetWide() && caller.has(io.lifeline.security.identity.Role.VIEWER);
    }

    public CompletableFuture<AutomationBrakeService.View> view() {
        return CompletableFuture.supplyAsync(() -> service().view(), pool);
    }

    public CompletableFuture<AutomationBrakeService.View> reset(Caller caller, String reason) {
        return CompletableFuture.supplyAsync(() -> service().reset(caller, reason), pool);
    }

    private AutomationBrakeService service() {
        AutomationBrakeService s = brake.get();
        if (s == null) {
            throw new IllegalStateException("the automation brake is not available in this deployment");
        }
        return s;
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
