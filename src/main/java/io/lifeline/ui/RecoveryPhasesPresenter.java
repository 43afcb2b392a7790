package io.lifeline.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.job.incident.RecoveryPhase;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.PhaseStats;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseRow;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The Reliability page's "Recovery time by phase" in words and its chart, from a {@link RecoveryPhaseReport} as
 * {@code GET /api/v1/reliability/recovery-phases} returns it: a row per group under the row of them all, each
 * phase's median and 90th percentile, and a stacked bar of the medians.
 */
final class RecoveryPhasesPresenter {

    /** One colour per phase, in phase order (Okabe-Ito: told apart by colour-blind readers; decals add a pattern). */
    private static final List<String> COLOURS =
            List.of("#e69f00", "#cc79a7", "#56b4e9", "#009e73", "#0072b2", "#d55e00");

    private RecoveryPhasesPresenter() {}

    /** A grouping as a person reads it. */
    static String label(PhaseGroupBy by) {
        return switch (by) {
            case CAUSE -> "Cause";
            case POOL -> "Pool";
            case CAUSE_POOL -> "Cause and pool";
        };
    }

    /** A phase as a person reads it: "Lost rework". */
    static String phase(RecoveryPhase p) {
        String w = Format.words(p);
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    /** A row's name: "All", a cause in words, a pool, or "spot reclaim · pool". */
    static String group(RecoveryPhaseRow r) {
        if (r.cause() == null && r.pool() == null) {
            return "All";
        }
        if (r.cause() == null) {
            return r.pool();
        }
        return r.pool() == null ? Format.words(r.cause()) : Format.words(r.cause()) + " · " + r.pool();
    }

    /** The all row first, then the groups, as the table and the chart show them. */
    static List<RecoveryPhaseRow> rows(RecoveryPhaseReport r) {
        List<RecoveryPhaseRow> out = new ArrayList<>(r.rows().size() + 1);
        out.add(r.all());
        out.addAll(r.rows());
        return out;
    }

    /** A phase's cell: "30 s / 1 min 30 s" (median / 90th percentile), a dash without interruption. */
    static String cell(RecoveryPhaseRow r, RecoveryPhase p) {
        PhaseStats s = r.stats(p);
        return s.p50Seconds() == null ? "—" : seconds(s.p50Seconds()) + " / " + seconds(s.p90Seconds());
    }

    /** Seconds as a duration; a phase that took no time reads "0 s". */
    static String seconds(Double s) {
        return s != null && s == 0 ? "0 s" : Format.seconds(s);
    }

    /** The GPU-hours every phase of the row held together. */
    static String gpuHours(RecoveryPhaseRow r) {
        return Format.gpuHours(
                r.phases().stream().mapToDouble(PhaseStats::gpuHours).sum());
    }

    /** Which phase held the most GPU-hours in the row, or null without any. */
    static RecoveryPhase costliest(RecoveryPhaseRow r) {
        PhaseStats top = null;
        for (PhaseStats s : r.phases()) {
            if (s.gpuHours() > 0 && (top == null || s.gpuHours() > top.gpuHours())) {
                top = s;
            }
        }
        return top == null ? null : top.phase();
    }

    /** A line under the selectors: how many interruptions, since when, and where the GPU-hours went most. */
    static String summary(RecoveryPhaseReport r, ZoneId zone) {
        int n = r.all().incidents();
        RecoveryPhase top = costliest(r.all());
        return n + (n == 1 ? " interruption" : " interruptions") + " closed since " + Format.time(r.from(), zone)
                + " · " + gpuHours(r.all())
                + (top == null ? "" : " · most in " + Format.words(top) + " (" + gpuHours(r.all(), top) + ")")
                + " · nearest-rank percentiles";
    }

    private static String gpuHours(RecoveryPhaseRow r, RecoveryPhase p) {
        return Format.gpuHours(r.stats(p).gpuHours());
    }

    /**
     * Median seconds of each phase per row, stacked horizontally: the row's bar is the sum of its phases' medians,
     * not the median recovery, and says which phase the typical interruption spends longest in.
     */
    static String chart(RecoveryPhaseReport r) {
        List<RecoveryPhaseRow> rows = rows(r);
        ObjectNode o = Charts.base();
        ArrayNode cats = Charts.JSON.createArrayNode();
        rows.forEach(row -> cats.add(group(row) + " (" + row.incidents() + ")"));
        o.putObject("tooltip").put("trigger", "axis").putObject("axisPointer").put("type", "shadow");
        o.putObject("legend").put("top", 0);
        o.putObject("aria").put("enabled", true).putObject("decal").put("show", true);
        o.putObject("grid")
                .put("left", 20)
                .put("right", 30)
                .put("top", 40)
                .put("bottom", 20)
                .put("containLabel", true);
        o.putObject("xAxis").put("type", "value").put("name", "median seconds");
        ObjectNode y = o.putObject("yAxis").put("type", "category").put("inverse", true);
        y.set("data", cats);
        y.putObject("axisLabel").put("fontSize", 12);
        ArrayNode series = o.putArray("series");
        for (RecoveryPhase p : RecoveryPhase.values()) {
            ArrayNode data = Charts.JSON.createArrayNode();
            for (RecoveryPhaseRow row : rows) {
                Double s = row.stats(p).p50Seconds();
                data.add(s == null ? 0 : Math.round(s * 10) / 10.0);
            }
            series.addObject()
                    .put("name", phase(p))
                    .put("type", "bar")
                    .put("stack", "median")
                    .put("color", COLOURS.get(p.ordinal()))
                    .set("data", data);
        }
        return Charts.themed(o);
    }

    /** The chart in words, for screen readers. */
    static String describe(RecoveryPhaseReport r) {
        String parts = rows(r).stream()
                .map(row -> group(row) + " (" + row.incidents() + "): "
                        + Arrays.stream(RecoveryPhase.values())
                                .map(p -> Format.words(p) + " "
                                        + seconds(row.stats(p).p50Seconds()))
                                .collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
        return "Median seconds by recovery phase per " + label(r.groupBy()).toLowerCase(Locale.ROOT) + ", "
                + r.windowDays() + " days: " + parts + ".";
    }
}
