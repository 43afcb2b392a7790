package io.lifeline.domain.job.recovery;

import io.lifeline.domain.job.incident.IncidentCause;
import java.util.Map;

/**
 * A job's two restart budgets, counted job-wide: interruptions that came with notice or by plan (a spot reclaim, a
 * maintenance, a preemption, an operator's drain or rescale) never use up the budget for failures, so a job on spot
 * capacity does not run out of restarts without ever failing.
 *
 * @param failures       interruptions by failure so far (software, node, GPU, hang, unexplained)
 * @param failureBudget  failures allowed, or null for no limit
 * @param planned        interruptions with notice or by plan so far
 * @param plannedBudget  those allowed, or null for no limit
 */
public record Budgets(int failures, Integer failureBudget, int planned, Integer plannedBudget) {

    /** The budgets from a job's interruptions by cause. */
    public static Budgets of(Map<IncidentCause, Integer> byCause, Integer failureBudget, Integer plannedBudget) {
        int failures = 0;
        int planned = 0;
        for (Map.Entry<IncidentCause, Integer> e : byCause.entrySet()) {
            if (e.getKey().planned()) {
                planned += e.getValue();
            } else {
                failures += e.getValue();
            }
        }
        return new Budgets(failures, failureBudget, planned, plannedBudget);
    }

    /** Whether failures went past their budget (the budget counts restarts allowed, as torchrun's max restarts). */
    public boolean failuresSpent() {
        return failureBudget != null && failures > failureBudget;
    }

    public boolean plannedSpent() {
        return plannedBudget != null && planned > plannedBudget;
    }
}
