package io.lifeline.domain.objective;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Reads an objective's budget, burn rates and time to exhaustion off its series. */
final class Budgets {

    private Budgets() {}

    static ObjectiveStatus status(
            Objective o,
            WindowSeries series,
            long nowMs,
            BurnThresholds th,
            Instant sampledAt,
            Set<String> jobs,
            double msPerHour,
            double heldSecondsTotal,
            double productiveSecondsTotal) {
        Tally w = series.sum(nowMs, o.window());
        double allowed = 1 - o.ettrTarget();
        double held = w.heldGpuMillis() / msPerHour;
        double productive = w.productiveGpuMillis() / msPerHour;
        double budget = allowed * held;
        double spent = held - productive;
        double lost = w.lostGpuMillis() / msPerHour;
        long heldMs = w.heldGpuMillis();
        double pricedShare = heldMs > 0 ? Math.max(0, (double) (heldMs - w.unpricedGpuMillis) / heldMs) : 0;
        boolean priced = heldMs > 0 && w.unpricedGpuMillis < heldMs;
        Double budgetMoney = priced ? allowed * w.heldMoney : null;
        Double spentMoney = priced ? w.spentMoney : null;
        Double lostMoney = priced ? w.lostMoney : null;
        Double lostLimitLeft = o.lostGpuHoursLimit() == null ? null : o.lostGpuHoursLimit() - lost;
        Double moneyLimitLeft = o.moneyLimit() == null || lostMoney == null ? null : o.moneyLimit() - lostMoney;

        Map<String, Double> burn = new LinkedHashMap<>();
        for (Duration d : BurnThresholds.WINDOWS) {
            burn.put(BurnThresholds.label(d), burnRate(o, series.sum(nowMs, d), d, msPerHour));
        }
        boolean fast = atLeast(burn.get("1h"), th.fast()) && atLeast(burn.get("5m"), th.fast());
        boolean slow = atLeast(burn.get("6h"), th.slow()) && atLeast(burn.get("30m"), th.slow());

        Double toExhaustion = hoursToExhaustion(
                o, series.sum(nowMs, BurnThresholds.ONE_HOUR), budget - spent, lostLimitLeft, msPerHour);
        boolean exhausted = held > 0 && budget - spent <= 0
                || lostLimitLeft != null && lostLimitLeft <= 0
                || moneyLimitLeft != null && moneyLimitLeft <= 0;
        ObjectiveState state = held <= 0 && lost <= 0
                ? ObjectiveState.NO_DATA
                : exhausted ? ObjectiveState.EXHAUSTED : fast || slow ? ObjectiveState.BURNING : ObjectiveState.MET;
        List<String> names = jobs.stream().limit(ObjectiveBook.MAX_LISTED_JOBS).toList();
        return new ObjectiveStatus(
                o,
                state,
                sampledAt,
                jobs.size(),
                names,
                held,
                productive,
                held > 0 ? productive / held : null,
                budget,
                spent,
                budget - spent,
                budgetMoney,
                spentMoney,
                budgetMoney == null ? null : budgetMoney - spentMoney,
                pricedShare,
                lost,
                lostMoney,
                lostLimitLeft,
                moneyLimitLeft,
                byPhase(w, msPerHour),
                byCause(w, msPerHour),
                burn,
                fast,
                slow,
                exhausted ? Double.valueOf(0) : toExhaustion,
                heldSecondsTotal,
                productiveSecondsTotal);
    }

    /**
     * The burn rate over one window: the share of held time not productive over the share the target allows; where a
     * loss limit is set, the larger of that and the loss per hour over the limit per hour. Null when nothing was held
     * and nothing lost.
     */
    static Double burnRate(Objective o, Tally t, Duration span, double msPerHour) {
        long held = t.heldGpuMillis();
        Double rate = null;
        if (held > 0) {
            double error = 1 - (double) t.productiveGpuMillis() / held;
            rate = Math.max(0, error) / (1 - o.ettrTarget());
        }
        if (o.lostGpuHoursLimit() != null) {
            double perHour = t.lostGpuMillis() / msPerHour / (span.toMillis() / msPerHour);
            double allowedPerHour = o.lostGpuHoursLimit() / (o.window().toMillis() / msPerHour);
            double limitRate = perHour / allowedPerHour;
            if (rate != null) {
                rate = Math.max(rate, limitRate);
            } else if (t.lostGpuMillis() > 0) {
                rate = limitRate;
            }
        }
        return rate;
    }

    /**
     * Hours until the budget is spent at the last hour's net pace: spending minus what the held time adds to the
     * budget (and, with a loss limit, the loss against what is left of it). Null when neither is being depleted.
     */
    private static Double hoursToExhaustion(
            Objective o, Tally lastHour, double remaining, Double lostLimitLeft, double msPerHour) {
        double held = lastHour.heldGpuMillis() / msPerHour;
        double spent = held - lastHour.productiveGpuMillis() / msPerHour;
        double net = spent - (1 - o.ettrTarget()) * held;
        Double out = net > 0 ? Math.max(0, remaining) / net : null;
        double lostPerHour = lastHour.lostGpuMillis() / msPerHour;
        if (lostLimitLeft != null && lostPerHour > 0) {
            double h = Math.max(0, lostLimitLeft) / lostPerHour;
            out = out == null ? h : Math.min(out, h);
        }
        return out;
    }

    private static boolean atLeast(Double v, double threshold) {
        return v != null && v >= threshold;
    }

    private static Map<String, Double> byPhase(Tally w, double msPerHour) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Bucket b : Bucket.values()) {
            if (b != Bucket.PRODUCTIVE && b != Bucket.WAITING && w.gpuMillis[b.ordinal()] != 0) {
                out.put(b.name().toLowerCase(Locale.ROOT), w.gpuMillis[b.ordinal()] / msPerHour);
            }
        }
        return out;
    }

    /**
     * Spent GPU-hours by what caused them: interruption losses by their incidents' causes (what no incident claims
     * is {@code unattributed}), and the time no incident causes by its bucket (checkpoint blocking, start-up,
     * rescale pauses).
     */
    private static Map<String, Double> byCause(Tally w, double msPerHour) {
        Map<String, Double> out = new LinkedHashMap<>();
        double claimed = 0;
        for (IncidentCause c : IncidentCause.values()) {
            double v = w.lostGpuHoursByCause[c.ordinal()];
            if (v > 0) {
                out.merge(causeLabel(c), v, Double::sum);
                claimed += v;
            }
        }
        double loss = w.lostGpuMillis() / msPerHour;
        if (loss - claimed > 1e-9) {
            out.put("unattributed", loss - claimed);
        }
        for (Bucket b : List.of(Bucket.CHECKPOINT, Bucket.STARTUP, Bucket.RESCALE)) {
            long v = w.gpuMillis[b.ordinal()];
            if (v != 0) {
                out.merge(b.name().toLowerCase(Locale.ROOT), v / msPerHour, Double::sum);
            }
        }
        return out;
    }

    /** The cause as budgets name it: a GPU fault and a node failure are {@code hardware}, a software error {@code software}. */
    static String causeLabel(IncidentCause c) {
        return switch (c) {
            case GPU_FAULT, NODE_FAILURE -> "hardware";
            case SOFTWARE_ERROR -> "software";
            default -> c.name().toLowerCase(Locale.ROOT);
        };
    }
}
