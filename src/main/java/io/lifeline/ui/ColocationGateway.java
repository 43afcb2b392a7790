package io.lifeline.ui;

import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.platform.Threads;
import io.lifeline.policy.ColocationService;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The dashboard's door to {@link ColocationService}, off the UI thread (its ledger reads the action store), limited
 * to the signed-in caller's scope as {@code /api/v1/colocation} is. Without the service, nothing is lent.
 */
@ApplicationScoped
public class ColocationGateway {

    private final Supplier<ColocationService> service;
    private final Visibility visibility;
    private final ExecutorService pool = Executors.newSingleThreadExecutor(Threads.daemon("lifeline-ui-colocation"));

    @Inject
    ColocationGateway(Instance<ColocationService> service, Instance<Visibility> visibility) {
        this.service = () -> service.isResolvable() ? service.get() : null;
        this.visibility = visibility.isResolvable() ? visibility.get() : null;
    }

    /** One job's lendings, oldest first (empty when the job is outside the scope). */
    public CompletableFuture<List<ColocationLedger.Episode>> episodes(Scope scope, String job) {
        return CompletableFuture.supplyAsync(
                () -> {
                    ColocationService s = service.get();
                    if (s == null || job == null || !scope.allowsJob(job)) {
                        return List.of();
                    }
                    try {
                        return s.episodesOf(job);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                pool);
    }

    /** The pools with co-location rules the scope may see, with what they lend; empty without the service. */
    public CompletableFuture<Optional<ColocationService.Status>> status(Scope scope) {
        return CompletableFuture.supplyAsync(
                () -> {
                    ColocationService s = service.get();
                    if (s == null) {
                        return Optional.empty();
                    }
                    Set<String> pools = scope.isEverything() || visibility == null ? null : visibility.poolsUsed(scope);
                    try {
                        return Optional.of(
                                s.status(scope, p -> pools == null ? scope.isEverything() : pools.contains(p)));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                pool);
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
