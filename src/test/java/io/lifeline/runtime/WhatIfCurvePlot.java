package io.lifeline.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws {@code bench/whatif-curve.png} from {@code bench/whatif-curve.json} (written by
 * {@code io.lifeline.domain.replay.WhatIfCurve}; {@code bench/whatif-curve.sh} runs both) with Java2D, headless, as
 * {@link CostCurvePlot} does: the measured ETTR of the simulated job against the checkpoint interval (points), the
 * first-order model (dashed curve), and the optimum as measured, by Young, by Daly and as advised (vertical lines,
 * told apart by dash pattern as well as colour).
 * <pre>
 * java -Djava.awt.headless=true -cp ... io.lifeline.runtime.WhatIfCurvePlot bench/whatif-curve.json bench/whatif-curve.png
 * </pre>
 */
public final class WhatIfCurvePlot {

    private static final int W = 1200;
    private static final int H = 640;
    private static final Color MEASURED = new Color(0x1f77b4);
    private static final Color MODEL = new Color(0x333333);

    private WhatIfCurvePlot() {}

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args.length > 0 ? args[0] : "bench/whatif-curve.json");
        File out = new File(args.length > 1 ? args[1] : "bench/whatif-curve.png");
        JsonNode d = new ObjectMapper().readTree(Files.readString(in));
        JsonNode points = d.path("points");
        double c = d.path("checkpoint_cost_s").asDouble();
        double m = d.path("mtbi_s").asDouble();
        double r = d.path("recovery_s").asDouble();
        double xLo = points.get(0).path("interval_s").asDouble();
        double xHi = points.get(points.size() - 1).path("interval_s").asDouble();
        double yLo = Double.MAX_VALUE;
        double yHi = -Double.MAX_VALUE;
        for (JsonNode p : points) {
            for (String f : new String[] {"measured_ettr", "model_ettr"}) {
                yLo = Math.min(yLo, p.path(f).asDouble());
                yHi = Math.max(yHi, p.path(f).asDouble());
            }
        }
        yLo = Math.floor(yLo * 100) / 100;
        yHi = Math.ceil(yHi * 100 + 0.2) / 100;

        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "ETTR against the checkpoint interval: simulated job, Poisson "
                                + "interruptions, M = %s, C = %s, R = %s",
                        dur(m),
                        dur(c),
                        dur(r)),
                20,
                30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "%d interruptions over %.0f days replayed through the jobs model at each " + "interval",
                        d.path("interruptions").asInt(),
                        d.path("window_s").asDouble() / 86_400),
                20,
                52);
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "measured against the first-order model: at most %.1f %% apart from 0.5 to "
                                + "2 times Daly's optimum, %.1f %% at the ends (where C/τ is not small)",
                        d.path("max_gap_near_optimum").asDouble() * 100,
                        d.path("max_gap").asDouble() * 100),
                20,
                70);

        int left = 90;
        int right = W - 30;
        int top = 90;
        int bottom = H - 150;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        double yStep = niceStep(yHi - yLo, 8);
        for (double y = Math.ceil(yLo / yStep) * yStep; y <= yHi + 1e-9; y += yStep) {
            int py = sy(y, yLo, yHi, top, bottom);
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, py, right, py);
            g.setColor(Color.BLACK);
            String label = String.format(Locale.ROOT, "%.1f %%", y * 100);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        double xStep = niceStep((xHi - xLo) / 60, 10) * 60;
        for (double x = Math.ceil(xLo / xStep) * xStep; x <= xHi + 1e-9; x += xStep) {
            int px = sx(x, xLo, xHi, left, right);
            g.setColor(new Color(0xeeeeee));
            g.drawLine(px, top, px, bottom);
            g.setColor(Color.BLACK);
            g.drawLine(px, bottom, px, bottom + 4);
            String label = String.format(Locale.ROOT, "%.0f", x / 60);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) / 2, bottom + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, right - left, bottom - top);
        g.drawString(
                "checkpoint interval τ (minutes of training between two saves)",
                left + (right - left) / 2 - 170,
                bottom + 36);
        g.rotate(-Math.PI / 2);
        g.drawString("ETTR", -(top + bottom) / 2 - 15, 24);
        g.rotate(Math.PI / 2);

        model(g, c, m, r, new double[] {xLo, xHi, yLo, yHi}, new int[] {left, right, top, bottom});
        int px = -1;
        int py = -1;
        // The measured points, joined.
        g.setColor(MEASURED);
        g.setStroke(new BasicStroke(2f));
        for (JsonNode p : points) {
            int x = sx(p.path("interval_s").asDouble(), xLo, xHi, left, right);
            int y = sy(p.path("measured_ettr").asDouble(), yLo, yHi, top, bottom);
            g.fillOval(x - 5, y - 5, 10, 10);
            if (px >= 0) {
                g.drawLine(px, py, x, y);
            }
            px = x;
            py = y;
        }
        // The optima.
        Object[][] marks = {
            {"measured optimum (fit)", d.path("measured_optimum_s").asDouble(), MEASURED, new BasicStroke(2f)},
            {"Young √(2CM)", d.path("young_s").asDouble(), new Color(0x7f7f7f), dashed(2f, 2f, 4f)},
            {"Daly √(2CM) − C", d.path("daly_s").asDouble(), new Color(0x2ca02c), dashed(2f, 10f, 4f)},
            {
                "advice (" + d.path("advice_formula").asText() + ")",
                d.path("advice_s").asDouble(),
                new Color(0xd62728),
                dashed(2.5f, 14f, 4f, 3f, 4f)
            }
        };
        int legendY = bottom + 64;
        int legendX = left;
        legend(g, legendX, legendY, MEASURED, new BasicStroke(2f), true, "measured ETTR (replay through the model)");
        legend(g, legendX + 330, legendY, MODEL, dashed(2f, 8f, 6f), false, "first-order model 1 − C/τ − τ/2M − R/M");
        for (int i = 0; i < marks.length; i++) {
            String label = (String) marks[i][0];
            double tau = (Double) marks[i][1];
            Color colour = (Color) marks[i][2];
            Stroke stroke = (Stroke) marks[i][3];
            int x = sx(tau, xLo, xHi, left, right);
            g.setColor(colour);
            g.setStroke(stroke);
            g.drawLine(x, top, x, bottom);
            legend(
                    g,
                    legendX + (i % 2) * 330,
                    legendY + 22 * (1 + i / 2),
                    colour,
                    stroke,
                    false,
                    String.format(Locale.ROOT, "%s: %.0f s (%.1f min)", label, tau, tau / 60));
        }
        g.dispose();
        ImageIO.write(img, "png", out);
        System.out.println("wrote " + out);
    }

    /** The first-order model, as a smooth dashed curve; {@code range} is xLo, xHi, yLo, yHi, {@code box} left, right, top, bottom. */
    private static void model(Graphics2D g, double c, double m, double r, double[] range, int[] box) {
        g.setColor(MODEL);
        g.setStroke(dashed(2f, 8f, 6f));
        int px = -1;
        int py = -1;
        for (int i = 0; i <= 400; i++) {
            double tau = range[0] + (range[1] - range[0]) * i / 400.0;
            int x = sx(tau, range[0], range[1], box[0], box[1]);
            int y = sy(IntervalAdvisor.expectedEttr(tau, c, m, r), range[2], range[3], box[2], box[3]);
            if (px >= 0) {
                g.drawLine(px, py, x, y);
            }
            px = x;
            py = y;
        }
    }

    private static void legend(Graphics2D g, int x, int y, Color colour, Stroke stroke, boolean dot, String text) {
        g.setColor(colour);
        g.setStroke(stroke);
        g.drawLine(x, y - 4, x + 34, y - 4);
        if (dot) {
            g.fillOval(x + 12, y - 9, 10, 10);
        }
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.BLACK);
        g.drawString(text, x + 42, y);
    }

    private static BasicStroke dashed(float width, float... pattern) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, pattern, 0f);
    }

    private static double niceStep(double range, int ticks) {
        double raw = range / ticks;
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double f : new double[] {1, 2, 2.5, 5, 10}) {
            if (f * p >= raw) {
                return f * p;
            }
        }
        return 10 * p;
    }

    private static String dur(double s) {
        return s >= 3600 && s % 3600 == 0
                ? String.format(Locale.ROOT, "%.0f h", s / 3600)
                : s >= 60 && s % 60 == 0
                        ? String.format(Locale.ROOT, "%.0f min", s / 60)
                        : String.format(Locale.ROOT, "%.0f s", s);
    }

    private static int sx(double v, double lo, double hi, int left, int right) {
        return left + (int) Math.round((v - lo) / (hi - lo) * (right - left));
    }

    private static int sy(double v, double lo, double hi, int top, int bottom) {
        return bottom - (int) Math.round((v - lo) / (hi - lo) * (bottom - top));
    }
}
