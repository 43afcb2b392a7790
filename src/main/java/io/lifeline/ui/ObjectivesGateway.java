package io.lifeline.ui;

import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.ObjectiveScope;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.platform.Threads;
import io.lifeline.security.Scope;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The dashboard's door to the {@link ObjectiveService}: the objectives with their budgets, read off the UI thread (a
 * read waits for the book's lock, which a sample of a large fleet holds for a while) and limited to the caller's
 * {@link Scope} as {@code GET /api/v1/objectives} is: a caller limited to namespaces sees the objectives over its
 * namespaces and their jobs; one over an owner or a pool spans namespaces and is shown to fleet-wide callers only.
 */
@ApplicationScoped
public class ObjectivesGateway {

    /**
     * What the Objectives page shows.
     *
     * @param objectives  the statuses the caller may see, in the order configured
     * @param thresholds  the fast and slow burn-rate thresholds
     * @param source      where the objectives in force came from ({@code configuration}, {@code api})
     */
    public record ObjectivesPage(List<ObjectiveStatus> objectives, BurnThresholds thresholds, String source) {}

    private final ObjectiveService objectives;
    private final ExecutorService pool;

    ObjectivesGateway(ObjectiveService objectives) {
        this.objectives = objectives;
        this.pool = Executors.newSingleThreadExecutor(Threads.daemon("lifeline-ui-objectives"));
    }

    /** Every objective the scope may see; with {@code job}, those whose scope holds that job. */
    public CompletableFuture<ObjectivesPage> page(Scope scope, String job) {
        return CompletableFuture.supplyAsync(
                () -> new ObjectivesPage(
                        visible(scope, job == null ? objectives.statuses() : objectives.forJob(job)),
                        objectives.thresholds(),
                        objectives.source().name().toLowerCase(java.util.Locale.ROOT)),
                pool);
    }

    /** The objectives {@code job} is under that the scope may see; none when the job is outside the scope. */
    public CompletableFuture<List<ObjectiveStatus>> forJob(Scope scope, String job) {
        if (!scope.allowsJob(job)) {
            return CompletableFuture.completedFuture(List.of());
        }
        return CompletableFuture.supplyAsync(() -> visible(scope, objectives.forJob(job)), pool);
    }

    /** The rule of {@code GET /api/v1/objectives}: a namespaced scope sees the objectives inside its namespaces. */
    static List<ObjectiveStatus> visible(Scope scope, List<ObjectiveStatus> all) {
        if (scope.isEverything()) {
            return List.copyOf(all);
        }
        return all.stream()
                .filter(s -> {
                    ObjectiveScope os = s.objective().scope();
                    return os.namespace() != null && scope.allowsNamespace(os.namespace());
                })
                .toList();
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
