package io.lifeline.domain.job.advice;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Checkpoint-interval arithmetic (pure functions).
 *
 * <p>With checkpoint cost C (blocking save time), mean time between interruptions M and recovery time R
 * per interruption, all in seconds:
 * <ul>
 *   <li>Young (1974): τ = √(2CM).</li>
 *   <li>Daly (2006), first order: τ = √(2CM) − C, valid for C ≪ M (taken as C ≤ M/10).</li>
 *   <li>Daly (2006), higher order, used when C &gt; M/10: τ = √(2CM)·[1 + ⅓√(C/2M) + (1/9)(C/2M)] − C for
 *       C &lt; 2M, and τ = M for C ≥ 2M.</li>
 *   <li>Expected ETTR at interval τ, first-order model: ETTR ≈ 1 − C/τ − τ/(2M) − R/M (clamped to [0, 1]):
 *       each period of τ pays C to save, each interruption (rate 1/M) loses on average τ/2 of work and R of
 *       recovery.</li>
 * </ul>
 *
 * <p>Against an ETTR target T ({@link #againstTarget}), the same model says which intervals keep the job inside its
 * objective: those where ETTR(τ) ≥ T. ETTR(τ) rises up to Young's interval √(2CM), where it peaks at
 * 1 − √(2C/M) − R/M, and falls beyond it, so the intervals that meet T are one range around √(2CM), found by
 * bisecting ETTR(τ) itself on each side of the peak; or none, when the peak is below T.
 */
public final class IntervalAdvisor {

    /** The ETTR model, as stated in each advice. */
    public static final String MODEL = "ETTR ≈ 1 − C/τ − τ/(2M) − R/M (first order)";

    /** Largest C/M for which the first-order formulas are taken as valid. */
    public static final double FIRST_ORDER_LIMIT = 0.1;

    /** Halvings of a bracket at most: each loop also stops once the bracket is one ulp wide. */
    private static final int BISECTIONS = 200;

    private IntervalAdvisor() {}

    public static double young(double c, double m) {
        return Math.sqrt(2 * c * m);
    }

    public static double dalyFirstOrder(double c, double m) {
        return Math.sqrt(2 * c * m) - c;
    }

    public static double dalyHigherOrder(double c, double m) {
        if (c >= 2 * m) {
            return m;
        }
        double x = c / (2 * m);
        return Math.sqrt(2 * c * m) * (1 + Math.sqrt(x) / 3 + x / 9) - c;
    }

    /** Modelled ETTR at interval {@code tau}. */
    public static double expectedEttr(double tau, double c, double m, double r) {
        double e = 1 - c / tau - tau / (2 * m) - r / m;
        return Math.max(0, Math.min(1, e));
    }

    /**
     * Advice from measured inputs; any of {@code c}, {@code m} and {@code current} may be null (unknown).
     *
     * @param job      job name
     * @param current  current interval in seconds, or null
     * @param source   where the current interval comes from
     * @param c        checkpoint cost in seconds, or null
     * @param costSamples  how many saves C comes from
     * @param exposure the per-node MTBI inputs
     * @param nodes    nodes of the job
     * @param r        mean recovery seconds per interruption
     */
    public static IntervalAdvice advise(
            String job,
            Double current,
            String source,
            Double c,
            int costSamples,
            Exposure exposure,
            int nodes,
            double r) {
        List<String> notes = new ArrayList<>();
        Double perNode = exposure.interruptions() > 0 ? exposure.nodeSeconds() / exposure.interruptions() : null;
        Double m = perNode != null && nodes > 0 ? perNode / nodes : null;
        if (c == null) {
            notes.add("no completed checkpoint with a blocking time yet: C unknown");
        }
        if (perNode == null) {
            notes.add(String.format(
                    "no interruption observed in pools %s over %.1f node-hours: M unknown",
                    exposure.pools(), exposure.nodeSeconds() / 3600.0));
        } else if (nodes == 0) {
            notes.add("the job runs on no node now: M unknown");
        }
        if (c == null || m == null) {
            return new IntervalAdvice(
                    job,
                    current,
                    source,
                    c,
                    costSamples,
                    exposure.pools(),
                    nodes,
                    perNode,
                    m,
                    exposure.interruptions(),
                    exposure.nodeSeconds() / 3600.0,
                    r,
                    null,
                    null,
                    null,
                    "none",
                    false,
                    null,
                    null,
                    MODEL,
                    List.copyOf(notes),
                    null,
                    List.of());
        }
        double young = young(c, m);
        double daly = dalyFirstOrder(c, m);
        boolean valid = c <= FIRST_ORDER_LIMIT * m;
        double recommended;
        String formula;
        if (valid) {
            recommended = daly;
            formula = "daly-first-order: sqrt(2CM) - C";
        } else {
            recommended = dalyHigherOrder(c, m);
            formula = c >= 2 * m
                    ? "daly-higher-order: tau = M (C >= 2M)"
                    : "daly-higher-order: sqrt(2CM)(1 + sqrt(C/2M)/3 + C/18M) - C";
            notes.add(String.format(
                    "C/M = %.3f is not much smaller than 1: first-order formulas do not hold; "
                            + "expect a low ETTR at any interval",
                    c / m));
        }
        if (r >= m) {
            notes.add("recovery takes longer than the time between interruptions: no interval can help");
        }
        Double atCurrent = current == null || current <= 0 ? null : expectedEttr(current, c, m, r);
        double atRecommended = expectedEttr(recommended, c, m, r);
        return new IntervalAdvice(
                job,
                current,
                source,
                c,
                costSamples,
                exposure.pools(),
                nodes,
                perNode,
                m,
                exposure.interruptions(),
                exposure.nodeSeconds() / 3600.0,
                r,
                young,
                daly,
                recommended,
                formula,
                valid,
                atCurrent,
                atRecommended,
                MODEL,
                List.copyOf(notes),
                null,
                List.of());
    }

    /**
     * The advice read against an ETTR target (0..1): the range of intervals whose expected ETTR meets it at the
     * observed rate, or the best expected ETTR and its interval when none does, and whether the current and the
     * recommended interval meet it. A target of 0 or below asks nothing and leaves the advice as it is.
     */
    public static IntervalAdvice againstTarget(IntervalAdvice a, double target) {
        if (!(target > 0)) {
            return a;
        }
        Double c = a.checkpointCostSeconds();
        Double m = a.mtbiSeconds();
        if (c == null || m == null || c <= 0) {
            return a.withObjective(new ObjectiveAdvice(target, null, null, null, null, null, null, null));
        }
        double r = a.recoverySeconds();
        DoubleUnaryOperator ettr = tau -> expectedEttr(tau, c, m, r);
        double peak = young(c, m);
        double best = ettr.applyAsDouble(peak);
        boolean reachable = best >= target;
        Double lowest = reachable ? lowestMeeting(ettr, peak, target) : null;
        Double highest = reachable ? highestMeeting(ettr, peak, target) : null;
        return a.withObjective(new ObjectiveAdvice(
                target,
                reachable,
                lowest,
                highest,
                best,
                peak,
                a.expectedEttrCurrent() == null ? null : a.expectedEttrCurrent() >= target,
                a.expectedEttrRecommended() == null ? null : a.expectedEttrRecommended() >= target));
    }

    /** The shortest τ in (0, peak] with ETTR(τ) ≥ target, given ETTR(peak) ≥ target and ETTR rising up to the peak. */
    private static double lowestMeeting(DoubleUnaryOperator ettr, double peak, double target) {
        double below = 0;
        double meets = peak;
        for (int i = 0; i < BISECTIONS && meets - below > Math.ulp(meets); i++) {
            double mid = (below + meets) / 2;
            if (ettr.applyAsDouble(mid) >= target) {
                meets = mid;
            } else {
                below = mid;
            }
        }
        return meets;
    }

    /** The longest τ ≥ peak with ETTR(τ) ≥ target, given ETTR(peak) ≥ target and ETTR falling beyond the peak. */
    private static double highestMeeting(DoubleUnaryOperator ettr, double peak, double target) {
        double meets = peak;
        double above = 2 * peak;
        // τ/(2M) grows without bound, so some doubling falls below any target above 0.
        while (ettr.applyAsDouble(above) >= target && above < Double.MAX_VALUE / 2) {
            meets = above;
            above *= 2;
        }
        for (int i = 0; i < BISECTIONS && above - meets > Math.ulp(above); i++) {
            double mid = (meets + above) / 2;
            if (ettr.applyAsDouble(mid) >= target) {
                meets = mid;
            } else {
                above = mid;
            }
        }
        return meets;
    }

    /**
     * Observed exposure of the pools a job runs in.
     *
     * @param pools          pool names
     * @param nodeSeconds    node-seconds the pools' nodes spent running jobs
     * @param interruptions  interruptions attributed to those pools
     */
    public record Exposure(List<String> pools, double nodeSeconds, long interruptions) {

        public Exposure {
            pools = List.copyOf(pools);
        }
    }
}
