package io.lifeline.domain.objective;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An objective's budget over its window as of one sample. GPU-hours are weighted by the GPUs held; money is GPU-hours
 * times each job's price when it was sampled, and null while no job of the scope had a price.
 *
 * <p>{@code budgetGpuHours = (1 - ettrTarget) x heldGpuHours}, {@code spentGpuHours = heldGpuHours -
 * productiveGpuHours}, {@code remainingGpuHours = budgetGpuHours - spentGpuHours} (negative once overspent): spent
 * plus remaining is the budget, always. A burn rate is the share of held time not productive in its window over the
 * share the target allows ({@code 1 - ettrTarget}), or, where a loss limit is set and burns faster, the loss per hour
 * over the limit per hour of the window: 1 spends the budget exactly over the window.
 *
 * @param objective                   the objective
 * @param state                       where it stands
 * @param sampledAt                   the sample it is of
 * @param jobs                        jobs of its scope in the last sample
 * @param jobNames                    their names, at most {@link ObjectiveBook#MAX_LISTED_JOBS}
 * @param heldGpuHours                GPU-hours held in the window
 * @param productiveGpuHours          of them, productive
 * @param ettr                        productive / held in the window, or null when nothing was held
 * @param budgetGpuHours              what the target allows not to be productive
 * @param spentGpuHours               held but not productive
 * @param remainingGpuHours           budget minus spent
 * @param budgetMoney                 the budget priced, or null
 * @param spentMoney                  the spent time priced, or null
 * @param remainingMoney              budget minus spent, priced, or null
 * @param pricedShare                 share of the held GPU-hours that had a price (money covers only those)
 * @param lostGpuHours                lost to interruptions in the window (lost rework, hang, recovery)
 * @param lostMoney                   the same priced, or null
 * @param lostLimitRemainingGpuHours  {@code lostGpuHoursLimit - lostGpuHours}, or null without that limit
 * @param moneyLimitRemaining         {@code moneyLimit - lostMoney}, or null without that limit or a price
 * @param spentByPhase                spent GPU-hours by goodput bucket ({@code checkpoint}, {@code recovery_load}...)
 * @param spentByCause                spent GPU-hours by cause ({@code spot_reclaim}, {@code hardware}, {@code checkpoint}...)
 * @param burnRates                   burn rate by window label ({@code 5m}, {@code 30m}, {@code 1h}, {@code 6h}); null
 *                                    where nothing was held
 * @param fastBurn                    the 1 h and 5 min burn rates are both at least the fast threshold
 * @param slowBurn                    the 6 h and 30 min burn rates are both at least the slow threshold
 * @param hoursToExhaustion           at the last hour's net pace, hours until the budget (or a limit) is spent; 0 when
 *                                    it is; null when it is not being spent faster than it accrues
 * @param heldGpuSecondsTotal         GPU-seconds held by the scope since the objective was set (a counter)
 * @param productiveGpuSecondsTotal   of them productive, never decreasing: a rework holds it back until training
 *                                    has made the lost work good again (a counter)
 */
public record ObjectiveStatus(
        Objective objective,
        ObjectiveState state,
        Instant sampledAt,
        int jobs,
        List<String> jobNames,
        double heldGpuHours,
        double productiveGpuHours,
        Double ettr,
        double budgetGpuHours,
        double spentGpuHours,
        double remainingGpuHours,
        Double budgetMoney,
        Double spentMoney,
        Double remainingMoney,
        double pricedShare,
        double lostGpuHours,
        Double lostMoney,
        Double lostLimitRemainingGpuHours,
        Double moneyLimitRemaining,
        Map<String, Double> spentByPhase,
        Map<String, Double> spentByCause,
        Map<String, Double> burnRates,
        boolean fastBurn,
        boolean slowBurn,
        Double hoursToExhaustion,
        double heldGpuSecondsTotal,
        double productiveGpuSecondsTotal) {

    /** The share of the budget left (1 untouched, 0 spent, negative overspent), or null without a budget yet. */
    public Double remainingShare() {
        return budgetGpuHours > 0 ? remainingGpuHours / budgetGpuHours : null;
    }
}
