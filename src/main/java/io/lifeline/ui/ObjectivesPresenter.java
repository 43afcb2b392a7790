package io.lifeline.ui;

import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.Objective;
import io.lifeline.domain.objective.ObjectiveState;
import io.lifeline.domain.objective.ObjectiveStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Objectives page's figures in words, from an {@link ObjectiveStatus} as {@code GET /api/v1/objectives} returns
 * it: where the objective stands, its ETTR against the target, the budget spent and left in GPU-hours and money,
 * the burn rates of the four windows against the fast and slow thresholds, and what spent the budget.
 */
final class ObjectivesPresenter {

    static final String NONE = "—";

    private ObjectivesPresenter() {}

    /** The state as a person reads it. */
    static String state(ObjectiveState s) {
        return switch (s) {
            case MET -> "Met";
            case BURNING -> "Burning";
            case EXHAUSTED -> "Exhausted";
            case NO_DATA -> "No data";
        };
    }

    /** The badge theme of a state: met green, burning amber (Lumo's default badge), exhausted red, no data grey. */
    static String theme(ObjectiveState s) {
        return switch (s) {
            case MET -> "success";
            case BURNING -> "";
            case EXHAUSTED -> "error";
            case NO_DATA -> "contrast";
        };
    }

    /** "namespace research · 95.0 % over 7d". */
    static String headline(Objective o) {
        return scope(o) + " · ETTR ≥ " + Format.percent(o.ettrTarget()) + " over " + Objective.formatWindow(o.window());
    }

    /** The scope in words: "namespace research", "job research/llm". */
    static String scope(Objective o) {
        return o.scope().kind().wire() + " " + o.scope().value();
    }

    /** "91.2 % (target 95.0 %)", or a dash and the target while nothing was held. */
    static String ettr(ObjectiveStatus s) {
        return Format.percent(s.ettr()) + " (target "
                + Format.percent(s.objective().ettrTarget()) + ")";
    }

    /** The share of the budget spent for the bar, clipped to [0, 1]; 1 once overspent, 0 without a budget. */
    static double spentShare(ObjectiveStatus s) {
        if (s.budgetGpuHours() <= 0) {
            return s.spentGpuHours() > 0 ? 1 : 0;
        }
        return Math.max(0, Math.min(1, s.spentGpuHours() / s.budgetGpuHours()));
    }

    /** "12.3 GPU-h spent of 40.0 GPU-h · 27.7 GPU-h left (69 %)"; overspent says by how much. */
    static String budget(ObjectiveStatus s) {
        String spent = Format.gpuHours(s.spentGpuHours()) + " spent of " + Format.gpuHours(s.budgetGpuHours());
        if (s.remainingGpuHours() < 0) {
            return spent + " · overspent by " + Format.gpuHours(-s.remainingGpuHours());
        }
        Double share = s.remainingShare();
        return spent + " · " + Format.gpuHours(s.remainingGpuHours()) + " left"
                + (share == null ? "" : " (" + String.format(Locale.ENGLISH, "%.0f %%", share * 100) + ")");
    }

    /** The budget priced ("1,234.50 spent of 4,000.00 · 2,765.50 left"), or empty while no job had a price. */
    static String money(ObjectiveStatus s) {
        if (s.budgetMoney() == null || s.spentMoney() == null) {
            return "";
        }
        String out = amount(s.spentMoney()) + " spent of " + amount(s.budgetMoney()) + " · "
                + amount(s.remainingMoney()) + " left";
        return s.pricedShare() < 0.999
                ? out + " (priced: " + String.format(Locale.ENGLISH, "%.0f %%", s.pricedShare() * 100) + " of the time)"
                : out;
    }

    /** The loss limits and what is left of them, or empty without any. */
    static String limits(ObjectiveStatus s) {
        List<String> parts = new ArrayList<>();
        Objective o = s.objective();
        if (o.lostGpuHoursLimit() != null) {
            parts.add("lost " + Format.gpuHours(s.lostGpuHours()) + " of " + Format.gpuHours(o.lostGpuHoursLimit())
                    + " allowed");
        }
        if (o.moneyLimit() != null) {
            parts.add("lost " + (s.lostMoney() == null ? "(unpriced)" : amount(s.lostMoney())) + " of "
                    + amount(o.moneyLimit()) + " allowed");
        }
        return String.join(" · ", parts);
    }

    static String amount(Double v) {
        return v == null ? NONE : String.format(Locale.ENGLISH, "%,.2f", v);
    }

    /** A burn rate: "2.4×", or a dash where nothing was held in its window. */
    static String rate(Double r) {
        return r == null ? NONE : String.format(Locale.ENGLISH, r < 10 ? "%.1f×" : "%.0f×", r);
    }

    /**
     * The burn rates of the four windows, each marked where it is at or over the threshold of its pair: "5m 20.0× ▲ ·
     * 30m 8.0× ▲ · 1h 15.0× ▲ · 6h 3.0×".
     */
    static String burns(ObjectiveStatus s, BurnThresholds t) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Double> e : s.burnRates().entrySet()) {
            double threshold = "5m".equals(e.getKey()) || "1h".equals(e.getKey()) ? t.fast() : t.slow();
            Double r = e.getValue();
            parts.add(e.getKey() + " " + rate(r) + (r != null && r >= threshold ? " ▲" : ""));
        }
        return String.join(" · ", parts);
    }

    /** Which burn-rate condition holds, against the thresholds: "fast burn (1h and 5m ≥ 14.4×)". */
    static String burnVerdict(ObjectiveStatus s, BurnThresholds t) {
        String fast = "1h and 5m ≥ " + threshold(t.fast());
        String slow = "6h and 30m ≥ " + threshold(t.slow());
        if (s.fastBurn()) {
            return "Fast burn (" + fast + ")";
        }
        if (s.slowBurn()) {
            return "Slow burn (" + slow + ")";
        }
        return "No burn alert (fast: " + fast + "; slow: " + slow + ")";
    }

    static String threshold(double t) {
        return (t == Math.rint(t) ? String.format(Locale.ENGLISH, "%.0f", t) : String.valueOf(t)) + "×";
    }

    /**
     * Hours to exhaustion at the last hour's pace: "already spent", "in 3.2 h at the last hour's pace", "in 2.5 days
     * ...", "not being spent".
     */
    static String exhaustion(ObjectiveStatus s) {
        Double h = s.hoursToExhaustion();
        if (h == null) {
            return s.state() == ObjectiveState.NO_DATA ? NONE : "not being spent";
        }
        if (h <= 0) {
            return "already spent";
        }
        return (h < 48
                        ? String.format(Locale.ENGLISH, "in %.1f h", h)
                        : String.format(Locale.ENGLISH, "in %.1f days", h / 24))
                + " at the last hour's pace";
    }

    /** Less than half a GPU-minute: shown as nothing rather than as "0 GPU-min". */
    private static final double NEGLIGIBLE_GPU_HOURS = 1 / 120.0;

    /** Spent GPU-hours by cause, largest first, what would read as zero left out. */
    static List<Map.Entry<String, Double>> spentByCause(ObjectiveStatus s) {
        return s.spentByCause().entrySet().stream()
                .filter(e -> e.getValue() != null && e.getValue() >= NEGLIGIBLE_GPU_HOURS)
                .sorted(Map.Entry.<String, Double>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .toList();
    }

    /** A cause or bucket key as words: {@code spot_reclaim} "spot reclaim". */
    static String words(String key) {
        return key.replace('_', ' ').replace('-', ' ');
    }

    /** What spent the budget in one line: "spot reclaim 3.1 GPU-h, checkpoint 1.2 GPU-h", or "nothing". */
    static String spentLine(ObjectiveStatus s) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Double> e : spentByCause(s)) {
            parts.add(words(e.getKey()) + " " + Format.gpuHours(e.getValue()));
        }
        return parts.isEmpty() ? "nothing" : String.join(", ", parts);
    }

    /** The link to a job's page ({@code jobs/namespace/name}), where its incidents are. */
    static String jobHref(String job) {
        int slash = job.indexOf('/');
        return "jobs/" + enc(job.substring(0, slash)) + "/" + enc(job.substring(slash + 1));
    }

    /** The link to the Objectives page, showing those that hold {@code job}. */
    static String objectivesHref(String job) {
        return "objectives?job=" + enc(job);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** One objective in a sentence, for the card's accessible description and the job page. */
    static String summary(ObjectiveStatus s) {
        return s.objective().name() + ": " + state(s.state()).toLowerCase(Locale.ROOT) + ", ETTR " + ettr(s) + ", "
                + budget(s);
    }
}
