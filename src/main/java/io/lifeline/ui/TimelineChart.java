package io.lifeline.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.PhaseStamp;
import io.lifeline.domain.job.membership.WorldSizePoint;
import io.lifeline.domain.policy.colocation.ColocationLedger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of the job detail charts: the interruption timeline (world size as a step line, incidents as shaded
 * spans coloured by cause, their phases and the checkpoints as markers) and the goodput breakdown.
 */
final class TimelineChart {

    private TimelineChart() {}

    static String timeline(JobDetailModel m) {
        return timeline(m, null, null);
    }

    /** The timeline zoomed to {@code windowFrom}..{@code windowTo} (epoch millis; null: the whole run). */
    static String timeline(JobDetailModel m, Long windowFrom, Long windowTo) {
        return timeline(m, windowFrom, windowTo, List.of());
    }

    /** The timeline with the co-location windows in which the job lent GPUs to inference, as hatched bands. */
    static String timeline(JobDetailModel m, Long windowFrom, Long windowTo, List<ColocationLedger.Episode> lendings) {
        ObjectNode o = Charts.base();
        o.putObject("tooltip").put("trigger", "item");
        o.putObject("legend").put("top", 0);
        o.putObject("grid").put("left", 50).put("right", 30).put("top", 40).put("bottom", 60);
        o.putObject("xAxis").put("type", "time");
        o.putObject("yAxis").put("type", "value").put("name", "ranks").put("minInterval", 1);
        ArrayNode zoom = o.putArray("dataZoom");
        ObjectNode slider =
                zoom.addObject().put("type", "slider").put("xAxisIndex", 0).put("bottom", 10);
        ObjectNode inside = zoom.addObject().put("type", "inside").put("xAxisIndex", 0);
        if (windowFrom != null && windowTo != null && windowTo > windowFrom) {
            for (ObjectNode z : List.of(slider, inside)) {
                z.put("startValue", windowFrom).put("endValue", windowTo);
            }
        }
        ArrayNode series = o.putArray("series");
        int last = 0;
        ObjectNode world = series.addObject()
                .put("name", "World size")
                .put("type", "line")
                .put("step", "end")
                .put("showSymbol", false)
                .put("color", "#1676f3");
        ArrayNode wdata = world.putArray("data");
        List<WorldSizePoint> points =
                m.membership() == null ? List.of() : m.membership().worldSizeSeries();
        for (WorldSizePoint p : points) {
            wdata.addArray().add(p.time().toEpochMilli()).add(p.worldSize());
            last = p.worldSize();
        }
        Instant end =
                m.detail().summary().finishedAt() != null ? m.detail().summary().finishedAt() : m.at();
        if (!points.isEmpty()) {
            wdata.addArray().add(end.toEpochMilli()).add(last);
        }
        ArrayNode areas = world.putObject("markArea").put("silent", false).putArray("data");
        ObjectNode phases = series.addObject()
                .put("name", "Incident phases")
                .put("type", "scatter")
                .put("symbol", "triangle")
                .put("symbolSize", 9)
                .put("color", "#e8543e");
        ArrayNode pdata = phases.putArray("data");
        for (IncidentView i : m.incidents()) {
            Instant from = i.stoppedAt() != null ? i.stoppedAt() : i.openedAt();
            Instant to = i.closedAt() != null ? i.closedAt() : end;
            if (from != null && to != null) {
                ArrayNode pair = areas.addArray();
                ObjectNode a = pair.addObject()
                        .put("name", Format.words(i.cause()) + (i.interrupted() ? "" : " (warning)"))
                        .put("xAxis", from.toEpochMilli());
                a.putObject("itemStyle").put("color", colour(i.cause(), i.interrupted()));
                a.putObject("label").put("color", Charts.BODY).put("fontSize", 11);
                pair.addObject().put("xAxis", Math.max(to.toEpochMilli(), from.toEpochMilli() + 1000));
            }
            for (PhaseStamp p : i.phases()) {
                if (p.time() != null) {
                    ObjectNode d = pdata.addObject()
                            .put(
                                    "name",
                                    i.id() + ": " + Format.words(p.phase())
                                            + (p.node() == null ? "" : " on " + p.node())
                                            + (p.detail() == null ? "" : " (" + p.detail() + ")"));
                    d.putArray("value").add(p.time().toEpochMilli()).add(0);
                }
            }
        }
        ObjectNode ckpt = series.addObject()
                .put("name", "Checkpoints")
                .put("type", "scatter")
                .put("symbol", "diamond")
                .put("symbolSize", 10)
                .put("color", "#2fb463");
        ArrayNode cdata = ckpt.putArray("data");
        if (m.checkpoints() != null) {
            for (CheckpointView c : m.checkpoints().checkpoints()) {
                Instant t =
                        c.completedAt() != null ? c.completedAt() : c.failedAt() != null ? c.failedAt() : c.startedAt();
                if (t == null) {
                    continue;
                }
                ObjectNode d = cdata.addObject()
                        .put("name", c.id() + " · step " + c.step() + " · " + Format.words(c.status()));
                d.putArray("value").add(t.toEpochMilli()).add(c.worldSize() == null ? last : c.worldSize());
                if (!c.good()) {
                    // Not colour alone: a checkpoint still being written is a hollow diamond, a failed one a square.
                    boolean started = c.status() == CheckpointStatus.STARTED;
                    d.put("symbol", started ? "emptyDiamond" : "rect");
                    d.putObject("itemStyle").put("color", started ? "#6b7585" : "#cc3311");
                }
            }
        }
        if (!lendings.isEmpty()) {
            ObjectNode lent = series.addObject()
                    .put("name", "Lent to inference")
                    .put("type", "line")
                    .put("color", "#7b61ff");
            lent.putArray("data");
            ArrayNode bands = lent.putObject("markArea").put("silent", false).putArray("data");
            for (ColocationLedger.Episode e : lendings) {
                Instant to = e.closedAt() != null ? e.closedAt() : end;
                ArrayNode pair = bands.addArray();
                ObjectNode a = pair.addObject()
                        .put(
                                "name",
                                "Co-location: " + e.maxGpusLent() + " GPUs lent, "
                                        + Format.gpuHours(e.gpuHoursYielded()) + " yielded")
                        .put("xAxis", e.openedAt().toEpochMilli());
                a.putObject("itemStyle")
                        .put("color", "rgba(123, 97, 255, 0.15)")
                        .put("decal", "stripes");
                a.putObject("label")
                        .put("color", Charts.BODY)
                        .put("fontSize", 11)
                        .put("position", "insideTop");
                pair.addObject()
                        .put("xAxis", Math.max(to.toEpochMilli(), e.openedAt().toEpochMilli() + 1000));
            }
        }
        return Charts.themed(o);
    }

    /** The timeline in words, for screen readers (the tables below have every detail). */
    static String describe(JobDetailModel m) {
        int points =
                m.membership() == null ? 0 : m.membership().worldSizeSeries().size();
        int cps = m.checkpoints() == null ? 0 : m.checkpoints().checkpoints().size();
        return "Interruption timeline of " + m.name() + ": world size over time (" + points + " changes), "
                + m.incidents().size() + " incidents shaded by cause, " + cps
                + " checkpoints as diamonds. The incidents, checkpoints and membership tables below list the same events.";
    }

    /** The goodput breakdown in words. */
    static String describeGoodput(GoodputView g) {
        long wall = g.wallMillis();
        StringBuilder b = new StringBuilder("Goodput, share of wall time: ");
        boolean first = true;
        for (Map.Entry<String, Long> e : buckets(g).entrySet()) {
            if (e.getValue() > 0 && wall > 0) {
                b.append(first ? "" : "; ")
                        .append(e.getKey())
                        .append(' ')
                        .append(Charts.percent((double) e.getValue() / wall));
                first = false;
            }
        }
        return first ? "Goodput: no wall time yet." : b.append('.').toString();
    }

    static String colour(IncidentCause c, boolean interrupted) {
        String rgb;
        switch (c) {
            case SPOT_RECLAIM:
                rgb = "240,160,32";
                break;
            case GPU_FAULT:
            case NODE_FAILURE:
                rgb = "232,84,62";
                break;
            case PREEMPTION:
            case MAINTENANCE:
                rgb = "150,100,220";
                break;
            case HANG:
                rgb = "176,48,110";
                break;
            default:
                rgb = "138,148,163";
        }
        return "rgba(" + rgb + "," + (interrupted ? "0.30" : "0.12") + ")";
    }

    /** The goodput buckets, in hours of wall time. */
    static Map<String, Long> buckets(GoodputView g) {
        Map<String, Long> b = new LinkedHashMap<>();
        b.put("Productive", g.productiveMillis());
        b.put("Checkpoint saves", g.checkpointMillis());
        b.put("Lost rework", g.lostReworkMillis());
        b.put("Hang", g.hangMillis());
        b.put("Recovery: detection", g.recoveryDetectionMillis());
        b.put("Recovery: restart", g.recoveryRestartMillis());
        b.put("Recovery: checkpoint load", g.recoveryLoadMillis());
        b.put("Rescale", g.rescaleMillis());
        b.put("Startup", g.startupMillis());
        b.put("Waiting", g.waitingMillis());
        return b;
    }

    static String goodput(GoodputView g) {
        ObjectNode o = Charts.base();
        o.putObject("tooltip").put("trigger", "item");
        ObjectNode s = o.putArray("series").addObject().put("type", "pie").put("name", "Wall time");
        s.putArray("radius").add("45%").add("70%");
        s.putObject("label").put("color", Charts.BODY).put("formatter", "{b}: {d}%");
        ArrayNode data = s.putArray("data");
        String[] colours = {
            "#2fb463", "#7fb0f5", "#e8543e", "#b0306e", "#f0a020", "#f7d046", "#c08a2a", "#9664dc", "#8a94a3", "#c7ccd4"
        };
        int i = 0;
        for (Map.Entry<String, Long> e : buckets(g).entrySet()) {
            if (e.getValue() > 0) {
                ObjectNode d = data.addObject().put("name", e.getKey()).put("value", e.getValue());
                d.putObject("itemStyle").put("color", colours[i]);
            }
            i++;
        }
        return Charts.themed(o);
    }
}
