package io.lifeline.domain.job.checkpoint;

/**
 * How Lifeline judges a checkpoint's trust ({@code lifeline.checkpoints.suspect-loss-factor}).
 *
 * @param suspectLossFactor  a save after a loss above this many times the median of the recent losses is suspect
 *                           (default 10; at least 1)
 */
public record TrustRules(double suspectLossFactor) {

    public static final double DEFAULT_SUSPECT_LOSS_FACTOR = 10.0;

    public TrustRules {
        if (!(suspectLossFactor >= 1.0) || Double.isInfinite(suspectLossFactor)) {
            throw new IllegalArgumentException("suspectLossFactor must be a number of at least 1");
        }
    }

    public static TrustRules defaults() {
        return new TrustRules(DEFAULT_SUSPECT_LOSS_FACTOR);
    }
}
