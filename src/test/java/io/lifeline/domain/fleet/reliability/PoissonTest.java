package io.lifeline.domain.fleet.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Chi-square quantiles, Garwood intervals and Poisson tails against published table values. */
class PoissonTest {

    /** Values from the chi-square table (NIST/SEMATECH e-Handbook, 1.3.6.7.4), to its printed digits. */
    @ParameterizedTest
    @CsvSource({
        "0.975, 2, 7.378", "0.025, 2, 0.051", "0.95, 10, 18.307", "0.05, 10, 3.940", "0.995, 1, 7.879",
        "0.975, 100, 129.561", "0.025, 100, 74.222", "0.99, 30, 50.892", "0.90, 4, 7.779", "0.10, 4, 1.064",
        "0.5, 2, 1.386"
    })
    void chiSquareQuantilesMatchTheTable(double p, double dof, double table) {
        assertEquals(table, Poisson.chiSquareQuantile(p, dof), 0.0015);
    }

    @Test
    void tinyLowerQuantileOfOneDegree() {
        assertEquals(3.927e-5, Poisson.chiSquareQuantile(0.005, 1), 1e-7);
    }

    /** Exact 95 % limits for a Poisson mean (Garwood; the table of e.g. Ulm 1990), over an exposure of 1. */
    @ParameterizedTest
    @CsvSource({
        "0, 0, 3.689",
        "1, 0.0253, 5.572",
        "2, 0.2422, 7.225",
        "5, 1.6235, 11.668",
        "10, 4.7954, 18.390",
        "20, 12.217, 30.888"
    })
    void garwoodLimitsMatchTheTable(long k, double lower, double upper) {
        double[] ci = Poisson.garwood(k, 1, 0.95);
        assertEquals(lower, ci[0], 0.0006);
        assertEquals(upper, ci[1], 0.0006);
    }

    @Test
    void garwoodScalesWithExposure() {
        double[] ci = Poisson.garwood(10, 1000, 0.95);
        assertEquals(0.0047954, ci[0], 1e-6);
        assertEquals(0.018390, ci[1], 1e-6);
    }

    @Test
    void upperTailIsOneMinusTheCdf() {
        assertEquals(1 - 2.5 / Math.E, Poisson.upperTail(3, 1), 1e-12);
        assertEquals(1 - Math.exp(-0.1), Poisson.upperTail(1, 0.1), 1e-12);
        assertEquals(1, Poisson.upperTail(0, 5), 0);
        assertEquals(0, Poisson.upperTail(1, 0), 0);
        // Far in the tail: P(X >= 20 | mean 2) = 5.5e-12 (sum of the pmf).
        double sum = 0;
        double term = Math.exp(-2);
        for (int i = 0; i < 200; i++) {
            if (i >= 20) {
                sum += term;
            }
            term *= 2.0 / (i + 1);
        }
        assertEquals(sum, Poisson.upperTail(20, 2), sum * 1e-8);
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Poisson.garwood(-1, 1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> Poisson.garwood(1, 0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> Poisson.garwood(1, 1, 1.5));
        assertThrows(IllegalArgumentException.class, () -> Poisson.chiSquareQuantile(0.5, 0));
        assertThrows(IllegalArgumentException.class, () -> Gamma.inverseP(1.1, 2));
    }

    @Test
    void inverseUndoesP() {
        for (double a : new double[] {0.3, 0.5, 1, 2.5, 7, 40, 500}) {
            for (double p : new double[] {1e-6, 0.01, 0.3, 0.5, 0.9, 0.999999}) {
                assertEquals(p, Gamma.p(a, Gamma.inverseP(p, a)), 1e-9 + p * 1e-8, "a=" + a + " p=" + p);
            }
        }
    }
}
