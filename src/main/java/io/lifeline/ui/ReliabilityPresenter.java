package io.lifeline.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.Interruption;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Reliability page's figures in words and its MTBF chart, from a {@link ReliabilityReport} as the REST endpoint
 * returns it: node-days in service, MTBF in hours, rates per 1,000 node-days (a figure a person can compare across
 * pools without counting zeros), each with its interval.
 */
final class ReliabilityPresenter {

    private static final String NONE = "—";
    private static final double PER_THOUSAND_NODE_DAYS = 24_000;

    private ReliabilityPresenter() {}

    /** A group-by choice as a person reads it. */
    static String label(GroupBy by) {
        return switch (by) {
            case POOL -> "Pool";
            case ZONE -> "Zone";
            case INSTANCE_TYPE -> "Instance type";
            case CAPACITY_TYPE -> "Capacity type";
        };
    }

    /** A window's wire form ({@code 30d}) as words. */
    static String windowLabel(String window) {
        return "Last " + window.substring(0, window.length() - 1) + " days";
    }

    /** A cause's wire form as words ({@code gpu-failure}: "gpu failure"). */
    static String cause(String wire) {
        return wire.replace('-', ' ');
    }

    static String nodeDays(double nodeHours) {
        return String.format(Locale.ENGLISH, "%,.1f", nodeHours / 24);
    }

    /** The non-zero causes, most frequent first: "not ready 5, spot reclaim 1". */
    static String byCause(Map<String, Long> byCause) {
        String s = byCause.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> cause(e.getKey()) + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return s.isEmpty() ? "none" : s;
    }

    static String hours(Double h) {
        if (h == null) {
            return NONE;
        }
        return String.format(Locale.ENGLISH, h < 1000 ? "%.1f h" : "%,.0f h", h);
    }

    /** The MTBF; without an interruption, what the interval says it is at least. */
    static String mtbf(ReliabilityRow r) {
        if (r.mtbfHours() == null) {
            return r.mtbfLowerHours() == null ? NONE : "no interruption (≥ " + hours(r.mtbfLowerHours()) + ")";
        }
        return hours(r.mtbfHours());
    }

    static String mtbfInterval(ReliabilityRow r) {
        if (r.mtbfLowerHours() == null) {
            return NONE;
        }
        return r.mtbfUpperHours() == null
                ? "≥ " + hours(r.mtbfLowerHours())
                : hours(r.mtbfLowerHours()) + " – " + hours(r.mtbfUpperHours());
    }

    /** The MTBF and its interval in one cell: "96.0 h (41.1 h – 295.7 h)". */
    static String mtbfCell(ReliabilityRow r) {
        return r.mtbfHours() == null ? mtbf(r) : mtbf(r) + " (" + mtbfInterval(r) + ")";
    }

    /** The rate per 1,000 node-days and its interval in one cell: "250.0 (81.2 – 583.4)". */
    static String rateCell(ReliabilityRow r) {
        return r.rate() == null ? NONE : rate(r.rate()) + " (" + rateInterval(r) + ")";
    }

    /** Interruptions per 1,000 node-days. */
    static String rate(Double perNodeHour) {
        return perNodeHour == null
                ? NONE
                : String.format(Locale.ENGLISH, "%,.1f", perNodeHour * PER_THOUSAND_NODE_DAYS);
    }

    static String rateInterval(ReliabilityRow r) {
        return r.rateLower() == null || r.rateUpper() == null
                ? NONE
                : rate(r.rateLower()) + " – " + rate(r.rateUpper());
    }

    static String confidence(double c) {
        return String.format(Locale.ENGLISH, "%.0f %%", c * 100);
    }

    /** The chance of so many interruptions at the pool's rate: "4.1e-5", or "< 1e-12". */
    static String tail(double p) {
        return p < 1e-12 ? "< 1e-12" : String.format(Locale.ENGLISH, "%.1e", p);
    }

    /** One interruption of a lemon's evidence: its time in the viewer's zone, its cause and what the event said. */
    static String evidence(Interruption i, ZoneId zone) {
        return Format.time(i.time(), zone) + " " + cause(i.cause().wire())
                + (i.detail() == null || i.detail().isBlank() ? "" : ": " + i.detail());
    }

    /**
     * MTBF per group as a diamond with its interval as a whisker (a boxplot whose box is flat at the MTBF), on a log
     * axis: intervals from few interruptions span an order of magnitude or more. Groups without an interruption have
     * no MTBF to draw and are named in the description instead.
     */
    static String chart(ReliabilityReport r) {
        ObjectNode o = Charts.base();
        ArrayNode cats = Charts.JSON.createArrayNode();
        ArrayNode whiskers = Charts.JSON.createArrayNode();
        ArrayNode points = Charts.JSON.createArrayNode();
        for (ReliabilityRow row : drawn(r)) {
            cats.add(row.group());
            double m = round(row.mtbfHours());
            whiskers.addArray()
                    .add(round(row.mtbfLowerHours()))
                    .add(m)
                    .add(m)
                    .add(m)
                    .add(round(row.mtbfUpperHours()));
            points.add(m);
        }
        o.putObject("tooltip").put("trigger", "item");
        o.putObject("legend").put("top", 0);
        o.putObject("grid")
                .put("left", 20)
                .put("right", 30)
                .put("top", 40)
                .put("bottom", 20)
                .put("containLabel", true);
        ObjectNode x = o.putObject("xAxis").put("type", "category");
        x.set("data", cats);
        // Many groups: slanted names, so none hides another.
        x.putObject("axisLabel").put("interval", 0).put("fontSize", 12).put("rotate", cats.size() > 6 ? 30 : 0);
        o.putObject("yAxis").put("type", "log").put("name", "MTBF, hours").put("logBase", 10);
        ArrayNode series = o.putArray("series");
        ObjectNode interval = series.addObject()
                .put("name", confidence(r.confidence()) + " interval")
                .put("type", "boxplot")
                .put("color", "#1676f3");
        interval.putArray("boxWidth").add(4).add(10);
        interval.putObject("itemStyle")
                .put("color", "transparent")
                .put("borderColor", "#1676f3")
                .put("borderWidth", 2);
        interval.putObject("tooltip").put("show", false);
        interval.set("data", whiskers);
        ObjectNode point = series.addObject()
                .put("name", "MTBF")
                .put("type", "scatter")
                .put("symbol", "diamond")
                .put("symbolSize", 14)
                .put("color", "#cc3311")
                .put("z", 3);
        point.putObject("label")
                .put("show", true)
                .put("position", "right")
                .put("formatter", "{c} h")
                .put("color", Charts.BODY);
        point.putObject("tooltip").put("formatter", "{b}: MTBF {c} h");
        point.set("data", points);
        return Charts.themed(o);
    }

    /** The chart in words, for screen readers. */
    static String describe(ReliabilityReport r) {
        List<String> parts = new ArrayList<>();
        for (ReliabilityRow row : r.rows()) {
            parts.add(
                    row.mtbfHours() == null
                            ? row.group() + ": " + mtbf(row)
                            : row.group() + " " + hours(row.mtbfHours()) + " (" + mtbfInterval(row) + ")");
        }
        return "MTBF by " + label(r.groupBy()).toLowerCase(Locale.ROOT) + " with its " + confidence(r.confidence())
                + " interval, " + r.windowDays() + " days"
                + (parts.isEmpty() ? ": no node in service." : ": " + String.join("; ", parts) + ".");
    }

    /** The rows the chart can draw: those with an MTBF and both bounds. */
    static List<ReliabilityRow> drawn(ReliabilityReport r) {
        return r.rows().stream()
                .filter(x -> x.mtbfHours() != null && x.mtbfLowerHours() != null && x.mtbfUpperHours() != null)
                .toList();
    }

    private static double round(double v) {
        return v >= 100 ? Math.round(v) : Math.round(v * 10) / 10.0;
    }
}
