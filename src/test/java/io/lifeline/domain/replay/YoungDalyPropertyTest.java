package io.lifeline.domain.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The model held to the theory: a job with Poisson interruptions (rate 1/M), checkpoint cost C and recovery R is
 * replayed through the real jobs model at intervals around the optimum. For random (C, M, R) (seeded), the measured
 * ETTR lies within 2 % of the first-order model {@link IntervalAdvisor#expectedEttr}, the measured optimum within 5 %
 * of Young's √(2CM) and Daly's √(2CM) − C, and the advice picks it.
 *
 * <p>The measured optimum is the vertex of the least-squares fit of the measured points to a + b/τ + c·τ (a save
 * costs per period, lost work grows with the period): one noisy point cannot move it as it moves an arg-max over a
 * flat top. The (C, M) drawn keep C/M ≤ 0.004, where Young and Daly lie within 5 % of each other.
 */
class YoungDalyPropertyTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final double[] GRID = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0};

    /** Measured ETTR at each interval of the grid around Daly's optimum. */
    static double[][] curve(double c, double m, double r, double window, List<ReplayInterruption> is) {
        double daly = IntervalAdvisor.dalyFirstOrder(c, m);
        double[][] out = new double[GRID.length][];
        for (int k = 0; k < GRID.length; k++) {
            double tau = daly * GRID[k];
            out[k] = new double[] {tau, ettr(c, window, is, tau)};
        }
        return out;
    }

    static double ettr(double c, double window, List<ReplayInterruption> is, double tau) {
        GoodputView g = WhatIfSimulator.run(
                "sim/job",
                T0,
                T0.plusMillis(Math.round(window * 1000)),
                true,
                8,
                1,
                is,
                new WhatIfScenario(tau, "fixed", c, null, null, false, null),
                () -> false);
        return g.ettr();
    }

    /** The vertex √(b/c) of the least-squares fit y = a + b/τ + c·τ. */
    static double fittedOptimum(double[][] points) {
        double[][] ata = new double[3][3];
        double[] aty = new double[3];
        for (double[] p : points) {
            double[] row = {1, 1 / p[0], p[0]};
            for (int i = 0; i < 3; i++) {
                aty[i] += row[i] * p[1];
                for (int j = 0; j < 3; j++) {
                    ata[i][j] += row[i] * row[j];
                }
            }
        }
        double[] x = solve(ata, aty);
        // y = a + b/τ + cτ has its maximum at √(b/c) when b < 0 and c < 0
        assertThat(x[1]).isNegative();
        assertThat(x[2]).isNegative();
        return Math.sqrt(x[1] / x[2]);
    }

    private static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        double[][] m = new double[n][n + 1];
        for (int i = 0; i < n; i++) {
            System.arraycopy(a[i], 0, m[i], 0, n);
            m[i][n] = b[i];
        }
        for (int p = 0; p < n; p++) {
            int best = p;
            for (int i = p + 1; i < n; i++) {
                if (Math.abs(m[i][p]) > Math.abs(m[best][p])) {
                    best = i;
                }
            }
            double[] t = m[p];
            m[p] = m[best];
            m[best] = t;
            for (int i = p + 1; i < n; i++) {
                double f = m[i][p] / m[p][p];
                for (int j = p; j <= n; j++) {
                    m[i][j] -= f * m[p][j];
                }
            }
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = m[i][n];
            for (int j = i + 1; j < n; j++) {
                s -= m[i][j] * x[j];
            }
            x[i] = s / m[i][i];
        }
        return x;
    }

    @Test
    void measuredEttrFollowsTheFirstOrderModelAndItsOptimumIsYoungDaly() {
        Random random = new Random(18);
        for (int sample = 0; sample < 6; sample++) {
            double c = 30 + random.nextDouble() * 270;
            double ratio = 0.0005 + random.nextDouble() * 0.0035;
            double m = c / ratio;
            double r = random.nextDouble() * 0.03 * m;
            String what = String.format("sample %d: C=%.0f s, M=%.0f s, R=%.0f s", sample, c, m, r);
            double window = 1500 * m;
            List<ReplayInterruption> is = PoissonInterruptions.generate(T0, window, m, r, random.nextLong());
            double[][] points = curve(c, m, r, window, is);
            for (double[] p : points) {
                double model = IntervalAdvisor.expectedEttr(p[0], c, m, r);
                assertThat(Math.abs(p[1] - model) / model)
                        .as(what + " at τ=%.0f s: measured %.4f, model %.4f", p[0], p[1], model)
                        .isLessThanOrEqualTo(0.02);
            }
            double optimum = fittedOptimum(points);
            double young = IntervalAdvisor.young(c, m);
            double daly = IntervalAdvisor.dalyFirstOrder(c, m);
            assertThat(Math.abs(optimum - young) / young)
                    .as(what + ": optimum %.0f s, Young %.0f s", optimum, young)
                    .isLessThanOrEqualTo(0.05);
            assertThat(Math.abs(optimum - daly) / daly)
                    .as(what + ": optimum %.0f s, Daly %.0f s", optimum, daly)
                    .isLessThanOrEqualTo(0.05);

            // The advice, from what the replay measured (C, the exposure and its interruptions, R), picks it.
            IntervalAdvice advice = IntervalAdvisor.advise(
                    "sim/job",
                    null,
                    null,
                    c,
                    10,
                    new IntervalAdvisor.Exposure(List.of("sim"), window, is.size()),
                    1,
                    r);
            assertThat(advice.recommendedSeconds()).isNotNull();
            assertThat(Math.abs(advice.recommendedSeconds() - optimum) / optimum)
                    .as(what + ": advice %.0f s, optimum %.0f s", advice.recommendedSeconds(), optimum)
                    .isLessThanOrEqualTo(0.05);
        }
    }
}
