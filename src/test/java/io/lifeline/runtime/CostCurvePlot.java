package io.lifeline.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import javax.imageio.ImageIO;

/**
 * Draws {@code bench/cost-curve.png} from the cost curve's JSON ({@code bench/cost-curve.json}, written by
 * {@code bench/cost-curve.sh}) and, when given, the HTTP cost curve's ({@code bench/cost-curve-http.json}, written by
 * {@code bench/cost-curve-http.sh}) with Java2D, headless: log-log panels over the fleet size, each with a dashed line
 * from the smallest point of linear growth, or flat where a figure should not grow with the fleet, so that whatever
 * grows faster stands out.
 * <pre>
 * java -Djava.awt.headless=true -cp ... io.lifeline.runtime.CostCurvePlot bench/cost-curve.json bench/cost-curve.png \
 *     [bench/cost-curve-http.json]
 * </pre>
 */
public final class CostCurvePlot {

    private static final int W = 1200;
    private static final int ROW = 405;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e)
    };

    private CostCurvePlot() {}

    /** One line: a label and the JSON field it plots. */
    private record Series(String label, String field) {}

    /**
     * One panel: its title, unit, lines, whether the dashed reference grows with the fleet or stays flat, and whether
     * it plots the HTTP curve's points.
     */
    private record Panel(String title, String unit, boolean linear, List<Series> series, boolean http) {

        Panel(String title, String unit, boolean linear, List<Series> series) {
            this(title, unit, linear, series, false);
        }
    }

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args.length > 0 ? args[0] : "bench/cost-curve.json");
        File out = new File(args.length > 1 ? args[1] : "bench/cost-curve.png");
        JsonNode points = new ObjectMapper().readTree(Files.readString(in)).path("points");
        JsonNode httpPoints = args.length > 2 && Files.exists(Path.of(args[2]))
                ? sorted(new ObjectMapper()
                        .readTree(Files.readString(Path.of(args[2])))
                        .path("points"))
                : null;
        List<Panel> panels = new ArrayList<>(List.of(
                new Panel(
                        "Events/s: offered by 10-s telemetry, applied by the model's thread",
                        "events/s",
                        true,
                        List.of(
                                new Series("offered", "offered_events_per_s"),
                                new Series("model thread capacity", "applied_events_per_s"))),
                new Panel(
                        "Retained heap per GPU (model + published snapshot)",
                        "bytes per GPU",
                        false,
                        List.of(new Series("heap per GPU", "heap_bytes_per_gpu"))),
                new Panel(
                        "Model-thread hold of one read, median of the rounds",
                        "ms",
                        true,
                        List.of(
                                new Series("published snapshot", "snapshot_hold_median_ms"),
                                new Series("/api/v1/gpus page", "api_gpus_page_hold_median_ms"),
                                new Series("/api/v1/jobs page", "api_jobs_page_hold_median_ms"),
                                new Series("checkpoint save", "checkpoint_save_hold_median_ms"))),
                new Panel(
                        "Start-up: model restored from a checkpoint",
                        "ms",
                        true,
                        List.of(new Series("decode + restore", "checkpoint_restore_ms")))));
        if (httpPoints != null && httpPoints.size() > 0) {
            panels.add(new Panel(
                    "Read API over HTTP under ingest: /api/v1/jobs and /api/v1/gpus",
                    "ms",
                    false,
                    List.of(
                            new Series("jobs p50", "api_jobs_p50_ms"), new Series("jobs p99", "api_jobs_p99_ms"),
                            new Series("gpus p50", "api_gpus_p50_ms"), new Series("gpus p99", "api_gpus_p99_ms")),
                    true));
            panels.add(new Panel(
                    "Start-up of the application, launch to ready",
                    "s",
                    false,
                    List.of(
                            new Series("on the size's database", "startup_seconds"),
                            new Series("on an empty database", "first_start_seconds")),
                    true));
        }
        int rows = (panels.size() + 1) / 2;
        int h = 50 + rows * ROW;
        BufferedImage img = new BufferedImage(W, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, h);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(
                "Lifeline cost curve: one replica, telemetry every 10 s (log-log; dashed: linear, or flat)", 20, 28);
        for (int i = 0; i < panels.size(); i++) {
            Panel p = panels.get(i);
            draw(
                    g,
                    p,
                    p.http() ? httpPoints : points,
                    20 + (i % 2) * (W / 2),
                    50 + (i / 2) * ROW,
                    W / 2 - 40,
                    ROW - 20);
        }
        g.dispose();
        ImageIO.write(img, "png", out);
        System.out.println("wrote " + out);
    }

    /** The points by fleet size, one per size (the first of several runs). */
    private static JsonNode sorted(JsonNode points) {
        TreeMap<Integer, JsonNode> bySize = new TreeMap<>();
        for (JsonNode p : points) {
            bySize.putIfAbsent(p.path("gpus").asInt(), p);
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        bySize.values().forEach(out::add);
        return out;
    }

    private static void draw(Graphics2D g, Panel p, JsonNode points, int x0, int y0, int w, int h) {
        int left = x0 + 70;
        int right = x0 + w - 10;
        int top = y0 + 30;
        int bottom = y0 + h - 60;
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (Series s : p.series()) {
            for (JsonNode pt : points) {
                double v = pt.path(s.field()).asDouble(Double.NaN);
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        double gMin = points.get(0).path("gpus").asDouble();
        double gMax = points.get(points.size() - 1).path("gpus").asDouble();
        // Room for the linear reference of the first series.
        double first = points.get(0).path(p.series().get(0).field()).asDouble();
        if (p.linear() && first > 0) {
            hi = Math.max(hi, first * gMax / gMin);
        }
        double yLo = Math.pow(10, Math.floor(Math.log10(lo)));
        double yHi = Math.pow(10, Math.ceil(Math.log10(hi)));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString(p.title(), x0, y0 + 16);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(0xdddddd));
        for (double d = yLo; d <= yHi * 1.0001; d *= 10) {
            int y = sy(d, yLo, yHi, top, bottom);
            g.drawLine(left, y, right, y);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, right - left, bottom - top);
        for (double d = yLo; d <= yHi * 1.0001; d *= 10) {
            String label = d >= 1 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.3g", d);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), sy(d, yLo, yHi, top, bottom) + 4);
        }
        for (JsonNode pt : points) {
            double gpus = pt.path("gpus").asDouble();
            int x = sx(gpus, gMin, gMax, left, right);
            String label = gpus >= 1024 ? (int) (gpus / 1024) + "k" : String.valueOf((int) gpus);
            g.drawLine(x, bottom, x, bottom + 4);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, bottom + 18);
        }
        g.drawString("GPUs (" + p.unit() + " on the vertical axis)", left, bottom + 34);
        int legendY = bottom + 50;
        int legendX = left;
        for (int i = 0; i < p.series().size(); i++) {
            Series s = p.series().get(i);
            g.setColor(COLORS[i % COLORS.length]);
            g.setStroke(new BasicStroke(2f));
            int prevX = -1;
            int prevY = -1;
            for (JsonNode pt : points) {
                double v = pt.path(s.field()).asDouble(Double.NaN);
                if (!(v > 0)) {
                    continue;
                }
                int x = sx(pt.path("gpus").asDouble(), gMin, gMax, left, right);
                int y = sy(v, yLo, yHi, top, bottom);
                g.fillOval(x - 4, y - 4, 8, 8);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, x, y);
                }
                prevX = x;
                prevY = y;
            }
            g.fillRect(legendX, legendY - 9, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(s.label(), legendX + 18, legendY);
            legendX += 36 + g.getFontMetrics().stringWidth(s.label());
        }
        if (first > 0) {
            g.setColor(Color.GRAY);
            g.setStroke(
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 5f}, 0f));
            double end = p.linear() ? first * gMax / gMin : first;
            g.drawLine(
                    sx(gMin, gMin, gMax, left, right),
                    sy(first, yLo, yHi, top, bottom),
                    sx(gMax, gMin, gMax, left, right),
                    sy(end, yLo, yHi, top, bottom));
            g.setStroke(new BasicStroke(1f));
        }
    }

    private static int sx(double v, double lo, double hi, int left, int right) {
        return left
                + 20
                + (int) Math.round((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) * (right - left - 40));
    }

    private static int sy(double v, double lo, double hi, int top, int bottom) {
        return bottom - (int) Math.round((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) * (bottom - top));
    }
}
