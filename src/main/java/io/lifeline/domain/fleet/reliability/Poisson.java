package io.lifeline.domain.fleet.reliability;

/**
 * Poisson arithmetic for interruption counts: the chi-square quantile, the exact (Garwood) interval of a rate
 * from k events over an exposure, and the upper tail that tells a lemon node from bad luck.
 */
public final class Poisson {

    private Poisson() {}

    /** The {@code p} quantile of the chi-square distribution with {@code dof} degrees of freedom (dof &gt; 0). */
    public static double chiSquareQuantile(double p, double dof) {
        if (!(dof > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be > 0, got " + dof);
        }
        return 2 * Gamma.inverseP(p, dof / 2);
    }

    /**
     * The exact two-sided interval (Garwood, 1936) of a Poisson rate from {@code k} events over {@code exposure}
     * (any unit; the rate is per that unit): [χ²(α/2; 2k) / 2T, χ²(1 − α/2; 2k + 2) / 2T], the lower bound 0 when
     * k = 0.
     *
     * @param confidence  for example 0.95
     * @return {lower, upper}
     */
    public static double[] garwood(long k, double exposure, double confidence) {
        if (k < 0) {
            throw new IllegalArgumentException("event count must be >= 0, got " + k);
        }
        if (!(exposure > 0)) {
            throw new IllegalArgumentException("exposure must be > 0, got " + exposure);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be within (0, 1), got " + confidence);
        }
        double alpha = 1 - confidence;
        double lower = k == 0 ? 0 : chiSquareQuantile(alpha / 2, 2.0 * k) / (2 * exposure);
        double upper = chiSquareQuantile(1 - alpha / 2, 2.0 * k + 2) / (2 * exposure);
        return new double[] {lower, upper};
    }

    /** P(X ≥ k) for X ~ Poisson(mean): 1 for k ≤ 0, else the regularized gamma P(k, mean). */
    public static double upperTail(long k, double mean) {
        if (k <= 0) {
            return 1;
        }
        if (!(mean >= 0)) {
            throw new IllegalArgumentException("mean must be >= 0, got " + mean);
        }
        return mean == 0 ? 0 : Gamma.p(k, mean);
    }
}
