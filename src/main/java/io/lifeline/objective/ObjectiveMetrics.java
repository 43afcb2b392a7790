package io.lifeline.objective;

import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.metrics.SeriesFamily;
import io.lifeline.metrics.SeriesFamily.Kind;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Publishes the goodput objectives' series ({@code lifeline_objective_*}): their targets, the counters Prometheus
 * rules compute burn rates from, and Lifeline's own budgets and burn rates. Series of a removed objective go at the
 * next refresh.
 */
@ApplicationScoped
public class ObjectiveMetrics {

    private static final Logger LOG = Logger.getLogger(ObjectiveMetrics.class);
    private static final String OBJECTIVE = "objective";
    /** GPU-hours are published in GPU-seconds: Prometheus names carry base units. */
    private static final double SECONDS_PER_HOUR = 3600.0;

    private final ObjectiveService objectives;
    private final Map<String, SeriesFamily> families = new LinkedHashMap<>();

    ObjectiveMetrics(ObjectiveService objectives, MeterRegistry registry) {
        this.objectives = objectives;
        family(registry, "lifeline_objective_info", "1 per goodput objective, with its scope", Kind.GAUGE);
        family(registry, "lifeline_objective_ettr_target_ratio", "ETTR the objective keeps", Kind.GAUGE);
        family(registry, "lifeline_objective_window_seconds", "The objective's rolling window", Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_held_gpu_seconds",
                "GPU-seconds held by the jobs of the objective's scope (wall time minus waiting, times GPUs)",
                Kind.COUNTER);
        family(
                registry,
                "lifeline_objective_productive_gpu_seconds",
                "GPU-seconds of productive training of the objective's scope",
                Kind.COUNTER);
        family(registry, "lifeline_objective_ettr_ratio", "ETTR over the objective's window", Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_budget_gpu_seconds",
                "Error budget over the window in GPU-seconds: (1 - target) x GPU time held",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_budget_spent_gpu_seconds",
                "GPU-seconds held but not productive over the window",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_budget_remaining_gpu_seconds",
                "Budget minus spent over the window (negative once overspent)",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_spent_gpu_seconds",
                "GPU-seconds of the budget spent over the window, by cause",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_objective_burn_rate",
                "Budget burn rate over the window label (1 spends it exactly over the objective's window)",
                Kind.GAUGE);
    }

    private void family(MeterRegistry registry, String name, String description, Kind kind) {
        families.put(name, new SeriesFamily(registry, name, description, kind));
    }

    @Scheduled(
            every = "${lifeline.metrics.snapshot-interval:15s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        try {
            publish();
        } catch (RuntimeException e) {
            LOG.warnf("Objective series not refreshed this time: %s", e.toString());
        }
    }

    /** Sets the series from the objectives now. */
    synchronized void publish() {
        Map<String, Map<Tags, Double>> v = new HashMap<>();
        families.keySet().forEach(n -> v.put(n, new HashMap<>()));
        for (ObjectiveStatus s : objectives.statuses()) {
            Tags t = Tags.of(OBJECTIVE, s.objective().name());
            v.get("lifeline_objective_info")
                    .put(
                            t.and("scope_kind", s.objective().scope().kind().wire())
                                    .and("scope", s.objective().scope().value()),
                            1.0);
            v.get("lifeline_objective_ettr_target_ratio").put(t, s.objective().ettrTarget());
            v.get("lifeline_objective_window_seconds")
                    .put(t, (double) s.objective().window().toSeconds());
            v.get("lifeline_objective_held_gpu_seconds").put(t, s.heldGpuSecondsTotal());
            v.get("lifeline_objective_productive_gpu_seconds").put(t, s.productiveGpuSecondsTotal());
            if (s.ettr() != null) {
                v.get("lifeline_objective_ettr_ratio").put(t, s.ettr());
            }
            v.get("lifeline_objective_budget_gpu_seconds").put(t, s.budgetGpuHours() * SECONDS_PER_HOUR);
            v.get("lifeline_objective_budget_spent_gpu_seconds").put(t, s.spentGpuHours() * SECONDS_PER_HOUR);
            v.get("lifeline_objective_budget_remaining_gpu_seconds").put(t, s.remainingGpuHours() * SECONDS_PER_HOUR);
            s.spentByCause()
                    .forEach((cause, h) -> v.get("lifeline_objective_spent_gpu_seconds")
                            .put(t.and("cause", cause), h * SECONDS_PER_HOUR));
            for (Duration w : BurnThresholds.WINDOWS) {
                Double b = s.burnRates().get(BurnThresholds.label(w));
                if (b != null) {
                    v.get("lifeline_objective_burn_rate").put(t.and("window", BurnThresholds.label(w)), b);
                }
            }
        }
        v.forEach((name, values) -> families.get(name).publish(values));
    }
}
