package io.lifeline.bench.goodput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws {@code bench/goodput.png} from the sweep of {@code bench/goodput.json}: the ETTR of each arm and the Young/Daly
 * bound against the interruption rate, in multiples of the published rates. Java2D, headless, like the project's other
 * charts.
 * <pre>
 * java -Djava.awt.headless=true -cp ... io.lifeline.bench.goodput.GoodputPlot bench/goodput.json bench/goodput.png
 * </pre>
 */
public final class GoodputPlot {

    private static final int W = 1100;
    private static final int H = 620;
    private static final String[][] SERIES = {
        {"ettr_with", "with Lifeline", "1f77b4", "solid"},
        {"ettr_without", "without Lifeline", "d62728", "solid"},
        {"ettr_bound", "Young/Daly bound", "555555", "dashed"}
    };

    private GoodputPlot() {}

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args.length > 0 ? args[0] : "bench/goodput.json");
        File out = new File(args.length > 1 ? args[1] : "bench/goodput.png");
        JsonNode sweep = new ObjectMapper().readTree(Files.readString(in)).path("sweep");
        if (sweep.size() < 2) {
            throw new IllegalArgumentException(in + " has no sweep to draw (run the bench with --sweep)");
        }
        double xLo = sweep.get(0).path("rate_scale").asDouble();
        double xHi = sweep.get(sweep.size() - 1).path("rate_scale").asDouble();
        double yLo = 1;
        for (JsonNode p : sweep) {
            for (String[] s : SERIES) {
                yLo = Math.min(yLo, p.path(s[0]).asDouble());
            }
        }
        yLo = Math.floor(yLo * 20) / 20;
        double yHi = 1;

        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        JsonNode first = sweep.get(0);
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "ETTR against the interruption rate: a %,d-GPU job, the same seeded history in both arms",
                        first.path("gpus").asInt()),
                20,
                30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.drawString(
                "1× = Llama 3's failure rate (466 interruptions in 54 days on 16,384 GPUs) and spot reclaims of"
                        + " 20 % of instances a month with 120 s notices",
                20, 52);

        int left = 80;
        int right = W - 30;
        int top = 80;
        int bottom = H - 110;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double y = yLo; y <= yHi + 1e-9; y += 0.05) {
            int py = sy(y, yLo, yHi, top, bottom);
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, py, right, py);
            g.setColor(Color.BLACK);
            String label = String.format(Locale.ROOT, "%.0f %%", y * 100);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        for (JsonNode p : sweep) {
            double x = p.path("rate_scale").asDouble();
            int px = sx(x, xLo, xHi, left, right);
            g.setColor(new Color(0xeeeeee));
            g.drawLine(px, top, px, bottom);
            g.setColor(Color.BLACK);
            String label = String.format(Locale.ROOT, "%.1f×", x);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) / 2, bottom + 18);
        }
        g.drawRect(left, top, right - left, bottom - top);
        g.drawString("interruption rate, times the published rates", left + (right - left) / 2 - 120, bottom + 38);
        g.rotate(-Math.PI / 2);
        g.drawString("ETTR (useful time over wall time)", -(top + bottom) / 2 - 90, 24);
        g.rotate(Math.PI / 2);

        int legend = 0;
        for (String[] s : SERIES) {
            Color c = new Color(Integer.parseInt(s[2], 16));
            g.setColor(c);
            g.setStroke(
                    "dashed".equals(s[3])
                            ? new BasicStroke(
                                    2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f)
                            : new BasicStroke(2.5f));
            int px = -1;
            int py = -1;
            for (JsonNode p : sweep) {
                int x = sx(p.path("rate_scale").asDouble(), xLo, xHi, left, right);
                int y = sy(p.path(s[0]).asDouble(), yLo, yHi, top, bottom);
                if ("solid".equals(s[3])) {
                    g.fillOval(x - 4, y - 4, 8, 8);
                }
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            int ly = bottom + 62;
            int lx = left + legend * 250;
            g.drawLine(lx, ly - 4, lx + 40, ly - 4);
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(1f));
            g.drawString(s[1], lx + 48, ly);
            legend++;
        }
        g.dispose();
        ImageIO.write(img, "png", out);
        System.out.println("wrote " + out);
    }

    private static int sx(double x, double lo, double hi, int left, int right) {
        return (int) Math.round(left + (x - lo) / (hi - lo) * (right - left));
    }

    private static int sy(double y, double lo, double hi, int top, int bottom) {
        return (int) Math.round(bottom - (y - lo) / (hi - lo) * (bottom - top));
    }
}
