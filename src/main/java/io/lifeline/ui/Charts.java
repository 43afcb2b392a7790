package io.lifeline.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.platform.Json;
import io.lifeline.ui.data.CauseStat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Builds ECharts options as JSON. Text and line colours are Lumo custom properties, resolved in the browser for the
 * theme in force (see {@link EChart}), so labels keep at least 4.5:1 in the light and the dark theme; the heat map's
 * colours are safe for colour-blind readers and never carry the meaning alone.
 */
final class Charts {

    static final ObjectMapper JSON = Json.mapper();
    /** Labels, axis names, legends: Lumo's secondary text (above 4.5:1 on the card in both themes). */
    static final String TEXT = "--lumo-secondary-text-color";

    static final String BODY = "--lumo-body-text-color";
    static final String BASE = "--lumo-base-color";
    static final String LINE = "--lumo-contrast-50pct";
    static final String GRID_LINE = "--lumo-contrast-10pct";

    /** GPU health 0, 1, 2: words, the glyph drawn on the cell, and a colour-blind-safe colour (Okabe-Ito, Tol). */
    static final List<String> HEALTH_WORDS = List.of("healthy", "degraded", "failed");

    static final List<String> HEALTH_GLYPHS = List.of("✓", "!", "✕");
    static final List<String> HEALTH_COLOURS = List.of("#56b4e9", "#e69f00", "#cc3311");
    /** Text on those colours, at least 4.5:1 on each. */
    static final List<String> HEALTH_GLYPH_COLOURS = List.of("#000000", "#000000", "#ffffff");

    private Charts() {}

    /** Interruptions (bars) and lost GPU-hours (second bar) by cause. */
    static String causes(List<CauseStat> stats) {
        ObjectNode o = base();
        ArrayNode cats = JSON.createArrayNode();
        ArrayNode counts = JSON.createArrayNode();
        ArrayNode lost = JSON.createArrayNode();
        for (CauseStat c : stats) {
            cats.add(Format.words(c.cause()));
            counts.add(c.interruptions());
            lost.add(Math.round(c.lostGpuHours() * 10) / 10.0);
        }
        o.putObject("tooltip").put("trigger", "axis");
        o.putObject("legend").put("top", 0);
        o.putObject("grid")
                .put("left", 40)
                .put("right", 50)
                .put("top", 30)
                .put("bottom", 30)
                .put("containLabel", true);
        ObjectNode x = o.putObject("xAxis").put("type", "category");
        x.set("data", cats);
        x.putObject("axisLabel").put("interval", 0).put("fontSize", 12);
        ArrayNode y = o.putArray("yAxis");
        y.addObject().put("type", "value").put("name", "interruptions").put("minInterval", 1);
        y.addObject()
                .put("type", "value")
                .put("name", "GPU-h")
                .putObject("splitLine")
                .put("show", false);
        ArrayNode series = o.putArray("series");
        series.addObject()
                .put("name", "Interruptions")
                .put("type", "bar")
                .put("color", "#1676f3")
                .set("data", counts);
        // Two series told apart by more than colour: the second is hatched.
        ObjectNode lostSeries = series.addObject()
                .put("name", "Lost GPU-hours")
                .put("type", "bar")
                .put("yAxisIndex", 1)
                .put("color", "#cc3311");
        lostSeries.putObject("itemStyle").set("decal", hatch());
        lostSeries.set("data", lost);
        return themed(o);
    }

    /** The causes chart in words. */
    static String describeCauses(List<CauseStat> stats) {
        if (stats.isEmpty()) {
            return "Interruptions by cause, last 7 days: none.";
        }
        return "Interruptions and lost GPU-hours by cause, last 7 days: "
                + stats.stream()
                        .map(c -> Format.words(c.cause()) + " " + c.interruptions() + " interruptions, "
                                + Format.gpuHours(c.lostGpuHours()) + " lost")
                        .collect(Collectors.joining("; "))
                + ".";
    }

    /** The heat map's first window of rows (see {@link #heatMap(HeatMapModel.Window)}). */
    static String heatMap(HeatMapModel m) {
        return heatMap(FleetPresenter.window(m));
    }

    /**
     * One heatmap of the GPUs of a window of rows: rows are nodes, columns GPU indexes. Only the window's rows and
     * cells are sent (a 16,000-GPU map would be hundreds of kilobytes), with their row indexes in the whole map and
     * {@code llWindow} (first row, row count), from which {@link EChart} lays out the whole axis; a vertical zoom
     * bar over it shows where the window is, and moving it asks the server for the rows it then shows.
     */
    static String heatMap(HeatMapModel.Window w) {
        HeatMapModel m = w.map();
        ObjectNode o = base();
        ArrayNode cols = JSON.createArrayNode();
        for (int c = 0; c < m.columns(); c++) {
            cols.add("GPU " + c);
        }
        ArrayNode rows = JSON.createArrayNode();
        w.nodes().forEach(rows::add);
        o.putObject("llWindow").put("first", w.first()).put("total", w.total());
        boolean health = m.metric() == HeatMapModel.Metric.HEALTH;
        ArrayNode data = JSON.createArrayNode();
        for (int r = w.first(); r <= w.last(); r++) {
            for (int c = 0; c < m.columns(); c++) {
                Double v = m.value(r, c);
                if (v == null) {
                    continue;
                }
                double shown = Math.round(v * 10) / 10.0;
                int level = (int) Math.round(v);
                if (health && level > 0 && level < HEALTH_GLYPHS.size()) {
                    // Not colour alone: a degraded or failed GPU carries its glyph on the cell.
                    ObjectNode d = data.addObject();
                    d.putArray("value").add(c).add(r).add(shown);
                    d.putObject("label")
                            .put("show", true)
                            .put("formatter", HEALTH_GLYPHS.get(level))
                            .put("color", HEALTH_GLYPH_COLOURS.get(level))
                            .put("fontWeight", "bold")
                            .put("fontSize", 13);
                } else {
                    data.addArray().add(c).add(r).add(shown);
                }
            }
        }
        o.putObject("tooltip").put("position", "top");
        o.putObject("grid")
                .put("left", 10)
                .put("right", 60)
                .put("top", 10)
                .put("bottom", health ? 20 : 60)
                .put("containLabel", true);
        o.putObject("xAxis").put("type", "category").put("position", "top").set("data", cols);
        ObjectNode y = o.putObject("yAxis").put("type", "category").put("inverse", true);
        y.set("data", rows);
        y.putObject("axisLabel").put("fontSize", 11);
        ArrayNode zoom = o.putArray("dataZoom");
        if (w.total() > w.rows()) {
            zoom.addObject()
                    .put("type", "slider")
                    .put("yAxisIndex", 0)
                    .put("right", 10)
                    .put("width", 16)
                    .put("startValue", w.first())
                    .put("endValue", w.last())
                    .put("zoomLock", false);
            zoom.addObject()
                    .put("type", "inside")
                    .put("yAxisIndex", 0)
                    .put("zoomOnMouseWheel", false)
                    .put("moveOnMouseWheel", true);
        }
        ObjectNode vm = o.putObject("visualMap")
                .put("orient", "horizontal")
                .put("left", "center")
                .put("bottom", 5)
                .put("dimension", 2);
        if (health) {
            // The legend is drawn as text beside the map (FleetView), readable by screen readers too.
            vm.put("type", "piecewise").put("show", false);
            ArrayNode pieces = vm.putArray("pieces");
            for (int i = 0; i < HEALTH_WORDS.size(); i++) {
                pieces.addObject()
                        .put("value", i)
                        .put("label", HEALTH_GLYPHS.get(i) + " " + HEALTH_WORDS.get(i))
                        .put("color", HEALTH_COLOURS.get(i));
            }
        } else {
            boolean util = m.metric() == HeatMapModel.Metric.UTILISATION;
            vm.put("type", "continuous")
                    .put("min", util ? 0 : 30)
                    .put("max", util ? 100 : 90)
                    .put("calculable", true);
            vm.set("text", JSON.createArrayNode().add(util ? "100 %" : "90 °C").add(util ? "0 %" : "30 °C"));
            ArrayNode colours = vm.putObject("inRange").putArray("color");
            // Single-hue and light-to-dark ramps: read by lightness, so safe for colour-blind readers.
            if (util) {
                colours.add("#e3ecf9").add("#7fb0f5").add("#1676f3").add("#0b3e8a");
            } else {
                colours.add("#fff7bc").add("#fec44f").add("#ec7014").add("#993404");
            }
        }
        ObjectNode series = o.putArray("series").addObject();
        series.put("name", m.metric().label()).put("type", "heatmap").put("progressive", 20000);
        series.putObject("itemStyle")
                .put("borderColor", "rgba(128,128,128,0.35)")
                .put("borderWidth", 1);
        // The keyboard-focused cell: a thick outline in the text colour.
        series.putObject("emphasis")
                .putObject("itemStyle")
                .put("borderColor", BODY)
                .put("borderWidth", 3);
        series.set("data", data);
        return themed(o);
    }

    /** A diagonal hatch, to tell a series apart without its colour. */
    static ObjectNode hatch() {
        ObjectNode d = JSON.createObjectNode()
                .put("symbol", "rect")
                .put("symbolSize", 1)
                .put("rotation", Math.PI / 4)
                .put("color", "rgba(255,255,255,0.55)");
        d.putArray("dashArrayX").add(1).add(0);
        d.putArray("dashArrayY").add(3).add(5);
        return d;
    }

    static ObjectNode base() {
        ObjectNode o = JSON.createObjectNode();
        o.put("backgroundColor", "transparent");
        o.put("animation", false);
        o.putObject("textStyle").put("color", TEXT).put("fontSize", 12);
        return o;
    }

    /** Gives every text and line of the option the theme's colours (labels, axis names, legends, zoom, tooltip). */
    static String themed(ObjectNode o) {
        for (String axis : new String[] {"xAxis", "yAxis"}) {
            for (JsonNode a : o.path(axis).isArray() ? o.path(axis) : List.of(o.path(axis))) {
                if (a instanceof ObjectNode ax) {
                    obj(ax, "axisLabel").put("color", TEXT);
                    obj(ax, "nameTextStyle").put("color", TEXT);
                    obj(obj(ax, "axisLine"), "lineStyle").put("color", LINE);
                    obj(obj(ax, "axisTick"), "lineStyle").put("color", LINE);
                    obj(obj(ax, "splitLine"), "lineStyle").put("color", GRID_LINE);
                }
            }
        }
        if (o.get("legend") instanceof ObjectNode legend) {
            obj(legend, "textStyle").put("color", BODY);
            legend.put("inactiveColor", LINE);
        }
        if (o.get("visualMap") instanceof ObjectNode vm) {
            obj(vm, "textStyle").put("color", TEXT);
        }
        for (JsonNode z : o.path("dataZoom")) {
            if (z instanceof ObjectNode zoom
                    && "slider".equals(zoom.path("type").asText())) {
                obj(zoom, "textStyle").put("color", TEXT);
                zoom.put("borderColor", LINE);
            }
        }
        ObjectNode tip = obj(o, "tooltip");
        tip.put("backgroundColor", BASE).put("borderColor", LINE);
        obj(tip, "textStyle").put("color", BODY);
        return o.toString();
    }

    private static ObjectNode obj(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode n ? n : parent.putObject(field);
    }

    static String percent(double share) {
        return String.format(Locale.ENGLISH, "%.0f %%", share * 100);
    }
}
