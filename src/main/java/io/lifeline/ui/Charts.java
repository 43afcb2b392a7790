package io.lifeline.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.ui.data.CauseStat;
import java.util.List;

/** Builds ECharts options as JSON. Colours follow Lumo's palette so both themes read well. */
final class Charts {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String TEXT = "#8a94a3";

    private Charts() {
    }

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
        o.putObject("legend").put("top", 0).putObject("textStyle").put("color", TEXT);
        o.putObject("grid").put("left", 40).put("right", 50).put("top", 30).put("bottom", 30).put("containLabel", true);
        ObjectNode x = o.putObject("xAxis").put("type", "category");
        x.set("data", cats);
        x.putObject("axisLabel").put("interval", 0).put("fontSize", 11);
        ArrayNode y = o.putArray("yAxis");
        y.addObject().put("type", "value").put("name", "interruptions").put("minInterval", 1);
        y.addObject().put("type", "value").put("name", "GPU-h").putObject("splitLine").put("show", false);
        ArrayNode series = o.putArray("series");
        series.addObject().put("name", "Interruptions").put("type", "bar").put("color", "#1676f3").set("data", counts);
        series.addObject().put("name", "Lost GPU-hours").put("type", "bar").put("yAxisIndex", 1).put("color", "#e8543e")
                .set("data", lost);
        return o.toString();
    }

    /** One heatmap of every shown GPU: rows are nodes, columns GPU indexes; a vertical zoom keeps 2,000 rows usable. */
    static String heatMap(HeatMapModel m) {
        ObjectNode o = base();
        ArrayNode cols = JSON.createArrayNode();
        for (int c = 0; c < m.columns(); c++) {
            cols.add("GPU " + c);
        }
        ArrayNode rows = JSON.createArrayNode();
        m.nodes().forEach(rows::add);
        ArrayNode data = JSON.createArrayNode();
        for (int r = 0; r < m.nodes().size(); r++) {
            for (int c = 0; c < m.columns(); c++) {
                Double v = m.value(r, c);
                if (v != null) {
                    data.addArray().add(c).add(r).add(Math.round(v * 10) / 10.0);
                }
            }
        }
        o.putObject("tooltip").put("position", "top");
        o.putObject("grid").put("left", 10).put("right", 60).put("top", 10).put("bottom", 60).put("containLabel", true);
        o.putObject("xAxis").put("type", "category").put("position", "top").set("data", cols);
        ObjectNode y = o.putObject("yAxis").put("type", "category").put("inverse", true);
        y.set("data", rows);
        y.putObject("axisLabel").put("fontSize", 10);
        int visible = Math.min(m.nodes().size(), 40);
        ArrayNode zoom = o.putArray("dataZoom");
        if (m.nodes().size() > visible) {
            zoom.addObject().put("type", "slider").put("yAxisIndex", 0).put("right", 10).put("width", 16)
                    .put("startValue", 0).put("endValue", visible - 1).put("zoomLock", false);
            zoom.addObject().put("type", "inside").put("yAxisIndex", 0).put("zoomOnMouseWheel", false)
                    .put("moveOnMouseWheel", true);
        }
        ObjectNode vm = o.putObject("visualMap").put("orient", "horizontal").put("left", "center").put("bottom", 5)
                .put("dimension", 2);
        vm.putObject("textStyle").put("color", TEXT);
        if (m.metric() == HeatMapModel.Metric.HEALTH) {
            vm.put("type", "piecewise");
            ArrayNode pieces = vm.putArray("pieces");
            pieces.addObject().put("value", 0).put("label", "healthy").put("color", "#2fb463");
            pieces.addObject().put("value", 1).put("label", "degraded").put("color", "#f0a020");
            pieces.addObject().put("value", 2).put("label", "failed").put("color", "#e8543e");
        } else {
            boolean util = m.metric() == HeatMapModel.Metric.UTILISATION;
            vm.put("type", "continuous").put("min", util ? 0 : 30).put("max", util ? 100 : 90).put("calculable", true);
            ArrayNode colours = vm.putObject("inRange").putArray("color");
            if (util) {
                colours.add("#e3ecf9").add("#7fb0f5").add("#1676f3").add("#0b3e8a");
            } else {
                colours.add("#2fb463").add("#f7d046").add("#f0a020").add("#e8543e");
            }
        }
        ObjectNode series = o.putArray("series").addObject();
        series.put("name", m.metric().label()).put("type", "heatmap").put("progressive", 20000);
        series.putObject("itemStyle").put("borderColor", "rgba(128,128,128,0.25)").put("borderWidth", 1);
        series.set("data", data);
        return o.toString();
    }

    static ObjectNode base() {
        ObjectNode o = JSON.createObjectNode();
        o.put("backgroundColor", "transparent");
        o.put("animation", false);
        o.putObject("textStyle").put("color", TEXT);
        return o;
    }
}
