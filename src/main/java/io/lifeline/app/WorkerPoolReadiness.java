package io.lifeline.app;

import io.quarkus.runtime.ExecutorRecorder;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * Readiness reflects a starved worker pool: every second a no-op task is handed to the pool that runs blocking
 * requests (REST resources, the dashboard, token lookups); when one has waited longer than
 * {@code lifeline.health.worker-pool-starved-after} (5 s) without starting, the replica is not ready, so a load
 * balancer sends its traffic elsewhere until the pool drains. Liveness is not touched: a starved replica is busy, not
 * broken, and restarting it would drop what it is working on.
 *
 * <p>While the pool is starved the readiness answer cannot wait for the other checks (the synchronous ones run on
 * that very pool): {@code /q/health/ready} and {@code /q/health} are answered 503 from the event loop at once.
 */
@Readiness
@ApplicationScoped
public class WorkerPoolReadiness implements io.smallrye.health.api.AsyncHealthCheck {

    static final String NAME = "worker-pool";
    private static final Logger LOG = Logger.getLogger(WorkerPoolReadiness.class);
    /** Runs after the security gate (which puts the headers on) and before every route. */
    private static final int FILTER_PRIORITY = 999_000;

    private final Vertx vertx;
    private final long starvedAfterNanos;
    /** When the probe now waiting was handed to the pool; 0 when none waits. */
    private final AtomicLong pendingSince = new AtomicLong();

    private volatile long lastWaitMillis;
    private volatile boolean reportedStarved;
    private long timer = -1;

    WorkerPoolReadiness(
            Vertx vertx,
            @ConfigProperty(name = "lifeline.health.worker-pool-starved-after", defaultValue = "5s")
                    Duration starvedAfter) {
        this.vertx = vertx;
        this.starvedAfterNanos = starvedAfter.toNanos();
    }

    void onStart(@Observes StartupEvent ev) {
        timer = vertx.setPeriodic(1000, t -> probe());
    }

    void onStop(@Observes ShutdownEvent ev) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    void register(@Observes Filters filters) {
        filters.register(this::answerWhileStarved, FILTER_PRIORITY);
    }

    /** Hands a no-op to the pool unless the last one still waits. Runs on the event loop. */
    void probe() {
        Executor pool = ExecutorRecorder.getCurrent();
        long now = System.nanoTime();
        if (pool == null || !pendingSince.compareAndSet(0, now)) {
            logChange();
            return;
        }
        try {
            pool.execute(() -> {
                lastWaitMillis = (System.nanoTime() - now) / 1_000_000;
                pendingSince.set(0);
            });
        } catch (RejectedExecutionException e) {
            // A bounded queue that is full: starved by definition, and the probe stays pending.
            LOG.debugf("Worker pool refused the readiness probe: %s", e.getMessage());
        }
        logChange();
    }

    private void logChange() {
        boolean starved = starved();
        if (starved != reportedStarved) {
            reportedStarved = starved;
            if (starved) {
                LOG.warnf(
                        "Worker pool starved: a task has waited %d ms to start (%s); not ready until it drains",
                        waitingMillis(), poolState());
            } else {
                LOG.infof("Worker pool drained (last task started after %d ms); ready again", lastWaitMillis);
            }
        }
    }

    /** Whether a task handed to the pool has waited longer than the bound. */
    public boolean starved() {
        long since = pendingSince.get();
        return since != 0 && System.nanoTime() - since > starvedAfterNanos;
    }

    private long waitingMillis() {
        long since = pendingSince.get();
        return since == 0 ? 0 : (System.nanoTime() - since) / 1_000_000;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Uni.createFrom().item(this::response);
    }

    HealthCheckResponse response() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named(NAME)
                .status(!starved())
                .withData("waitingMs", waitingMillis())
                .withData("lastStartDelayMs", lastWaitMillis)
                .withData("starvedAfterMs", starvedAfterNanos / 1_000_000);
        if (ExecutorRecorder.getCurrent() instanceof EnhancedQueueExecutor q) {
            b.withData("active", q.getActiveCount())
                    .withData("queued", q.getQueueSize())
                    .withData("max", q.getMaximumPoolSize());
        }
        return b.build();
    }

    private String poolState() {
        return ExecutorRecorder.getCurrent() instanceof EnhancedQueueExecutor q
                ? q.getActiveCount() + " of " + q.getMaximumPoolSize() + " threads busy, " + q.getQueueSize()
                        + " queued"
                : "pool details unknown";
    }

    /** {@code /q/health/ready} (and {@code /q/health}) while starved: 503 from the event loop, no worker needed. */
    private void answerWhileStarved(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (!starved() || path == null || !(path.endsWith("/q/health/ready") || path.endsWith("/q/health"))) {
            ctx.next();
            return;
        }
        HealthCheckResponse r = response();
        JsonObject data = new JsonObject();
        r.getData().ifPresent(d -> d.forEach(data::put));
        JsonObject check =
                new JsonObject().put("name", NAME).put("status", "DOWN").put("data", data);
        ctx.response()
                .setStatusCode(503)
                .putHeader("Content-Type", "application/json; charset=UTF-8")
                .end(new JsonObject()
                        .put("status", "DOWN")
                        .put("checks", new JsonArray().add(check))
                        .encode());
    }
}
