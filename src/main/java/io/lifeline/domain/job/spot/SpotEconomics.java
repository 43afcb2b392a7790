package io.lifeline.domain.job.spot;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.spot.SpotVerdict.Choice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The spot-vs-on-demand arithmetic (pure functions). For capacity type k with price p_k per GPU-hour and observed
 * reclaim rate λ_k (interruptions per node-hour in the job's pools), a job of N nodes with checkpoint cost C and
 * recovery time R per interruption (both from its own history) sees M_k = 3600 / (N · λ_k) seconds between
 * interruptions, is advised the interval τ_k of {@link io.lifeline.domain.job.advice.IntervalAdvisor} and is expected
 * to keep ETTR_k = 1 − C/τ_k − τ_k/(2M_k) − R/M_k of the GPU-time it pays for. A useful GPU-hour then costs
 * p_k / ETTR_k. Without an observed interruption on k the ETTR is the checkpoint overhead alone, 1 − C/τ at the
 * job's current interval.
 */
public final class SpotEconomics {

    /** The formula, as each verdict states it. */
    public static final String FORMULA = "cost per useful GPU-hour = price per GPU-hour / ETTR; "
            + "ETTR = 1 - C/tau - tau/(2M) - R/M at the interval tau advised for the capacity type, "
            + "M = 3600 / (nodes x interruptions per node-hour) s";

    /** Costs closer than this (in currency per GPU-hour) are taken as equal. */
    private static final double EQUAL = 1e-9;

    private SpotEconomics() {}

    /** The advice for one capacity type with its observed reclaim rate. */
    public static CapacityInterval interval(CapacityType type, IntervalAdvice advice) {
        Double rate =
                advice.exposureNodeHours() > 0 ? advice.interruptionsObserved() / advice.exposureNodeHours() : null;
        return new CapacityInterval(type.wireName(), rate, advice);
    }

    /**
     * The expected cost of a useful GPU-hour on one capacity type.
     *
     * @param ci                  the advice for the capacity type
     * @param price               its price per GPU-hour, or null when not configured
     * @param noExposureMeansNone whether pools that never ran this capacity type are taken as never reclaiming it
     *                            (on-demand: the provider does not reclaim it; spot: the rate is unknown)
     */
    public static CapacityCost cost(CapacityInterval ci, Double price, boolean noExposureMeansNone) {
        IntervalAdvice a = ci.advice();
        Double ettr;
        Double tau;
        String basis;
        if (a.recommendedSeconds() != null) {
            tau = a.recommendedSeconds();
            ettr = a.expectedEttrRecommended();
            basis = "modelled at the advised interval";
        } else if (a.checkpointCostSeconds() == null) {
            tau = null;
            ettr = null;
            basis = "unknown: no completed checkpoint with a blocking time yet";
        } else if (a.interruptionsObserved() == 0 && (a.exposureNodeHours() > 0 || noExposureMeansNone)) {
            tau = a.currentIntervalSeconds();
            ettr = tau == null || tau <= 0 ? 1.0 : Math.max(0, 1 - a.checkpointCostSeconds() / tau);
            basis = a.exposureNodeHours() > 0
                    ? "no interruption observed: checkpoint overhead only"
                    : "never run in these pools, taken as never reclaimed: checkpoint overhead only";
        } else {
            tau = null;
            ettr = null;
            basis = a.interruptionsObserved() == 0
                    ? "unknown: never run in these pools"
                    : "unknown: the job holds no nodes";
        }
        Double cost = price == null || ettr == null || ettr <= 0 ? null : price / ettr;
        return new CapacityCost(
                ci.capacityType(), price, ci.interruptionsPerNodeHour(), a.mtbiSeconds(), tau, ettr, basis, cost);
    }

    /**
     * Compares the two costs.
     *
     * @param pool          the pool whose prices were used
     * @param observedEttr  the job's own ETTR so far, or null
     */
    public static SpotVerdict verdict(String pool, CapacityCost spot, CapacityCost onDemand, Double observedEttr) {
        List<String> notes = new ArrayList<>();
        for (CapacityCost c : List.of(spot, onDemand)) {
            if (c.pricePerGpuHour() == null) {
                notes.add("no price per GPU-hour configured for " + c.capacityType() + " in pool " + pool
                        + " (lifeline.spot.price)");
            }
            if (c.ettr() == null) {
                notes.add(c.capacityType() + ": ETTR " + c.ettrBasis());
            } else if (c.ettrBasis().startsWith("never run")) {
                notes.add(c.capacityType() + ": " + c.ettrBasis());
            }
        }
        Choice cheaper;
        String warning = null;
        boolean spotUseless = spot.ettr() != null && spot.ettr() <= 0 && spot.pricePerGpuHour() != null;
        if (spotUseless && onDemand.costPerUsefulGpuHour() != null) {
            cheaper = Choice.ON_DEMAND;
            warning = String.format(
                    Locale.ROOT,
                    "on spot, reclaims in pool %s come too often for the job to keep any "
                            + "useful work; on-demand costs %.2f per useful GPU-hour",
                    pool,
                    onDemand.costPerUsefulGpuHour());
        } else if (spot.costPerUsefulGpuHour() == null || onDemand.costPerUsefulGpuHour() == null) {
            cheaper = Choice.UNKNOWN;
        } else {
            double s = spot.costPerUsefulGpuHour();
            double o = onDemand.costPerUsefulGpuHour();
            cheaper = Math.abs(s - o) < EQUAL ? Choice.EQUAL : s < o ? Choice.SPOT : Choice.ON_DEMAND;
            if (cheaper == Choice.ON_DEMAND) {
                warning = String.format(
                        Locale.ROOT,
                        "spot costs %.2f per useful GPU-hour, on-demand %.2f: reclaims in "
                                + "pool %s come too often for the checkpoints to keep up, so on-demand is cheaper for this job",
                        s,
                        o,
                        pool);
            }
        }
        return new SpotVerdict(pool, spot, onDemand, observedEttr, cheaper, warning, FORMULA, notes);
    }
}
