package io.lifeline.ops;

import java.util.Set;

/**
 * The series Lifeline publishes for each goodput objective, which the objectives dashboard and the burn-rate rules
 * read. They are named here because {@code /metrics} has them only while an objective is configured and the suite's
 * profile configures none: {@link GrafanaDashboardsTest} and {@link KustomizeTest} accept exactly these names besides
 * the ones the live endpoint serves and the code registers. Remove a name once a test makes it appear live.
 */
final class ObjectiveSeries {

    /** Published only while an objective is configured (docs/objectives.md). */
    static final Set<String> NAMES = Set.of(
            "lifeline_objective_info",
            "lifeline_objective_ettr_target_ratio",
            "lifeline_objective_window_seconds",
            "lifeline_objective_held_gpu_seconds_total",
            "lifeline_objective_productive_gpu_seconds_total",
            "lifeline_objective_ettr_ratio",
            "lifeline_objective_budget_gpu_seconds",
            "lifeline_objective_budget_spent_gpu_seconds",
            "lifeline_objective_budget_remaining_gpu_seconds",
            "lifeline_objective_spent_gpu_seconds",
            "lifeline_objective_burn_rate");

    private ObjectiveSeries() {}
}
