package io.lifeline.domain.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The ETTR-against-interval curve of a simulated job, for docs/whatif.md: Poisson interruptions at rate 1/M (the
 * simulation of {@link YoungDalyPropertyTest}), checkpoint cost C and recovery R, replayed through the real jobs model
 * ({@link WhatIfSimulator}) at intervals from 0.25 to 3 times Daly's optimum; beside each measured point the first-order
 * model's ETTR, and the optimum as measured (vertex of the fit), by Young, by Daly, and as the advice gives it from
 * what the replay measured. Writes JSON that {@code io.lifeline.runtime.WhatIfCurvePlot} draws
 * ({@code bench/whatif-curve.sh} runs both).
 * <pre>
 * java -cp ... io.lifeline.domain.replay.WhatIfCurve [--c 120] [--m 21600] [--r 300] [--seed 18] [--out FILE]
 * </pre>
 */
public final class WhatIfCurve {

    private static final double[] GRID = {
        0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.25, 2.5, 2.75, 3.0
    };
    /** The window, in M: 1,500 interruptions on average, as in the property test. */
    private static final double WINDOWS = 1500;

    private WhatIfCurve() {}

    public static void main(String[] args) throws IOException {
        double c = 120;
        double m = 21_600;
        double r = 300;
        long seed = 18;
        Path out = Path.of("bench", "whatif-curve.json");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--c" -> c = Double.parseDouble(args[i + 1]);
                case "--m" -> m = Double.parseDouble(args[i + 1]);
                case "--r" -> r = Double.parseDouble(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        double window = WINDOWS * m;
        List<ReplayInterruption> is = PoissonInterruptions.generate(YoungDalyPropertyTest.T0, window, m, r, seed);
        double daly = IntervalAdvisor.dalyFirstOrder(c, m);
        double[][] points = new double[GRID.length][];
        ObjectMapper json = new ObjectMapper();
        ObjectNode doc = json.createObjectNode();
        doc.put("checkpoint_cost_s", c)
                .put("mtbi_s", m)
                .put("recovery_s", r)
                .put("seed", seed)
                .put("window_s", window)
                .put("interruptions", is.size())
                .put("model", IntervalAdvisor.MODEL);
        ArrayNode pts = doc.putArray("points");
        long t0 = System.nanoTime();
        for (int k = 0; k < GRID.length; k++) {
            double tau = daly * GRID[k];
            double measured = YoungDalyPropertyTest.ettr(c, window, is, tau);
            points[k] = new double[] {tau, measured};
            double model = IntervalAdvisor.expectedEttr(tau, c, m, r);
            pts.addObject()
                    .put("interval_s", round(tau, 1))
                    .put("measured_ettr", round(measured, 5))
                    .put("model_ettr", round(model, 5))
                    .put("gap", round((measured - model) / model, 5));
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        // The fit and the advice over the grid near the optimum (0.5 to 2 times Daly), as the property test does.
        double[][] near = java.util.Arrays.stream(points)
                .filter(p -> p[0] >= 0.5 * daly * 0.999 && p[0] <= 2 * daly * 1.001)
                .toArray(double[][]::new);
        double optimum = YoungDalyPropertyTest.fittedOptimum(near);
        IntervalAdvice advice = IntervalAdvisor.advise(
                "sim/job", null, null, c, 10, new IntervalAdvisor.Exposure(List.of("sim"), window, is.size()), 1, r);
        doc.put("measured_optimum_s", round(optimum, 1))
                .put("young_s", round(IntervalAdvisor.young(c, m), 1))
                .put("daly_s", round(daly, 1))
                .put("advice_s", round(advice.recommendedSeconds(), 1))
                .put("advice_formula", advice.formula())
                .put("max_gap", round(maxGap(pts, 0, Double.MAX_VALUE), 5))
                .put("max_gap_near_optimum", round(maxGap(pts, 0.5 * daly * 0.999, 2 * daly * 1.001), 5))
                .put("replay_ms", ms);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n");
        System.out.printf(
                Locale.ROOT,
                "%d interruptions over %.0f days; measured optimum %.0f s, Young %.0f s, Daly %.0f s,"
                        + " advice %.0f s; largest gap to the model %.2f %% from 0.5 to 2 times Daly, %.2f %% over all; %d replays in %d ms;"
                        + " wrote %s%n",
                is.size(),
                window / 86_400,
                optimum,
                IntervalAdvisor.young(c, m),
                daly,
                advice.recommendedSeconds(),
                doc.path("max_gap_near_optimum").asDouble() * 100,
                doc.path("max_gap").asDouble() * 100,
                GRID.length,
                ms,
                out);
    }

    /** The largest |measured − model| / model over the intervals in [lo, hi]. */
    private static double maxGap(ArrayNode pts, double lo, double hi) {
        double max = 0;
        for (var p : pts) {
            double tau = p.path("interval_s").asDouble();
            if (tau >= lo && tau <= hi) {
                max = Math.max(max, Math.abs(p.path("gap").asDouble()));
            }
        }
        return max;
    }

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
