package io.lifeline.metrics;

import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.lifeline.security.identity.Caller;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code /metrics} for a caller limited to namespaces (when {@code lifeline.security.metrics-protected} puts it behind
 * a token): the scrape holds only the series that caller may see, {@link ScopedSeries}. A fleet-wide caller, and
 * everyone while the endpoint is open, gets the whole scrape from the registry's own handler.
 */
@ApplicationScoped
public class ScopedScrape {

    private static final int ORDER = -100;
    private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final Instance<PrometheusMeterRegistry> registry;
    private final Visibility visibility;
    private final String path;

    ScopedScrape(
            Instance<PrometheusMeterRegistry> registry,
            Visibility visibility,
            @ConfigProperty(name = "quarkus.micrometer.export.prometheus.path", defaultValue = "/q/metrics")
                    String path) {
        this.registry = registry;
        this.visibility = visibility;
        this.path = path;
    }

    void register(@Observes Router router) {
        // After the security gate (a filter: its route's order is minus its priority, a million), which attaches the
        // caller, and before the registry's own route (framework routes take orders counted up from 0).
        router.get(path).order(ORDER).handler(this::handle);
    }

    /**
     * The format of the answer: OpenMetrics only when the client asks for it and not for plain text (Prometheus
     * offers both and gets the text format, as it always did); the text format otherwise, so that a plain
     * {@code curl /metrics | promtool check metrics} reads the format promtool parses.
     */
    static String contentType(String accept) {
        return accept != null && accept.contains("application/openmetrics-text") && !accept.contains("text/plain")
                ? OPENMETRICS
                : TextFormat.CONTENT_TYPE_004;
    }

    private void handle(RoutingContext ctx) {
        Caller caller = ctx.get(CurrentCaller.CALLER_KEY);
        Scope scope = caller == null ? Scope.everything() : Scope.of(caller);
        String contentType = contentType(ctx.request().getHeader("Accept"));
        if (scope.isEverything() || !registry.isResolvable()) {
            // The registry's own handler answers OpenMetrics to anything but a request for plain text.
            if (!OPENMETRICS.equals(contentType)) {
                ctx.request().headers().set("Accept", "text/plain");
            }
            ctx.next();
            return;
        }
        // The nodes a scope may see come from the model thread, and the scrape takes a while: off the event loop.
        ctx.vertx()
                .executeBlocking(
                        () -> ScopedSeries.filter(
                                registry.get().scrape(contentType), scope, visibility.nodesUsed(scope)),
                        false)
                .onComplete(r -> {
                    if (r.failed()) {
                        ctx.fail(r.cause());
                    } else {
                        ctx.response().putHeader("Content-Type", contentType).end(r.result());
                    }
                });
    }
}
