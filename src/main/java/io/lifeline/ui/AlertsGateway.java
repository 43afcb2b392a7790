package io.lifeline.ui;

import com.vaadin.flow.shared.Registration;
import io.lifeline.alert.AlertService;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.alert.Silence;
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
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The dashboard's door to the {@link AlertService}: alerts with the silences muting them, creating and expiring
 * silences. Every call runs off the UI thread (the store waits on PostgreSQL) and completes a future the view pushes
 * from. Creating and expiring a silence needs an operator, checked here whatever the view shows, with the same rules
 * as {@code /api/v1/silences}. What it reads is limited to the caller's {@link Scope}, as {@code /api/v1/alerts} and
 * {@code /api/v1/silences} are: the alerts of its namespaces and of the nodes hosting its jobs, the silences confined
 * to its namespaces.
 */
@ApplicationScoped
public class AlertsGateway {

    private static final int LIMIT = 1000;

    /**
     * One alert as the dashboard shows it.
     *
     * @param since       when it entered its state: pending since, firing since, or resolved at
     * @param summary     the {@code summary} annotation, or empty
     * @param silencedBy  ids of the silences muting it now
     */
    public record AlertRow(
            String fingerprint,
            String rule,
            String alertName,
            AlertState state,
            String severity,
            Map<String, String> labels,
            String summary,
            Instant since,
            List<String> silencedBy) {

        /** The labels as {@code name=value} pairs. */
        public List<String> labelPairs() {
            List<String> out = new ArrayList<>();
            labels.forEach((k, v) -> out.add(k + "=" + v));
            return out;
        }
    }

    /** Alerts (firing first, as the store lists them) and the silences that are active or pending. */
    public record AlertsPage(List<AlertRow> alerts, List<Silence> silences, Instant readAt) {}

    private final AlertService alerts;
    private final Clock clock;
    private final Visibility visibility;
    private final ExecutorService pool;
    private final ScheduledExecutorService ticker;

    @Inject
    AlertsGateway(AlertService alerts, Clock clock, Visibility visibility) {
        this.alerts = alerts;
        this.clock = clock;
        this.visibility = visibility;
        this.pool = Executors.newFixedThreadPool(2, Threads.daemon("lifeline-ui-alerts"));
        this.ticker = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-ui-alerts-tick"));
    }

    /**
     * Alerts in {@code state} (null: pending, firing and resolved) of {@code rule} (null: every rule) that
     * {@code caller} may see, and the silences it may see; {@code silencedBy} names every silence muting an alert.
     */
    public CompletableFuture<AlertsPage> load(Caller caller, AlertState state, AlertRule rule) {
        return CompletableFuture.supplyAsync(
                () -> {
                    Instant now = clock.instant();
                    Scope scope = Scope.of(caller);
                    List<Silence> active = alerts.list(false);
                    List<AlertRow> rows = new ArrayList<>();
                    for (Alert a : alerts.alerts(scope, visibility.nodesUsed(scope), state, rule, null, LIMIT)) {
                        rows.add(row(a, active, now));
                    }
                    List<Silence> shown = scope.isEverything()
                            ? active
                            : active.stream()
                                    .filter(s -> AlertService.inScope(caller, s))
                                    .toList();
                    return new AlertsPage(List.copyOf(rows), shown, now);
                },
                pool);
    }

    /**
     * Silences alerts whose labels equal {@code labels} (each pair one matcher) for {@code duration} from now.
     *
     * @throws io.lifeline.security.identity.AccessDeniedException (in the future) when the caller is not an operator
     * @throws IllegalArgumentException  (in the future) no labels, no comment, a duration out of (0, 90 days]
     */
    public CompletableFuture<Silence> silence(
            Caller caller, Map<String, String> labels, Duration duration, String comment) {
        return CompletableFuture.supplyAsync(
                () -> {
                    List<Matcher> matchers = new ArrayList<>();
                    (labels == null ? Map.<String, String>of() : labels)
                            .forEach((k, v) -> matchers.add(Matcher.equal(k, v)));
                    return alerts.create(caller, matchers, null, null, duration, comment, "dashboard");
                },
                pool);
    }

    /** Expires silence {@code id} now. */
    public CompletableFuture<Silence> expire(Caller caller, String id) {
        return CompletableFuture.supplyAsync(() -> alerts.expire(caller, id), pool);
    }

    /** Runs {@code task} every {@code period} (on a worker thread) until the registration is removed. */
    public Registration every(Duration period, Runnable task) {
        ScheduledFuture<?> f =
                ticker.scheduleWithFixedDelay(task, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    /** What went wrong, for a person (the cause of a failed future). */
    public static String message(Throwable t) {
        Throwable c = t;
        while (c instanceof CompletionException && c.getCause() != null) {
            c = c.getCause();
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

    static AlertRow row(Alert a, List<Silence> silences, Instant now) {
        Instant since = a.state() == AlertState.FIRING && a.firingSince() != null
                ? a.firingSince()
                : a.state() == AlertState.RESOLVED && a.resolvedAt() != null ? a.resolvedAt() : a.activeSince();
        return new AlertRow(
                a.fingerprint(),
                a.rule().key(),
                a.rule().alertName(),
                a.state(),
                a.labels().getOrDefault("severity", ""),
                a.labels(),
                a.annotations().getOrDefault("summary", ""),
                since,
                AlertService.silencing(a, silences, now));
    }
}
