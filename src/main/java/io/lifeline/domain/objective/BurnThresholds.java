package io.lifeline.domain.objective;

import java.time.Duration;
import java.util.List;

/**
 * The multi-window burn-rate conditions of SRE practice (the Google SRE workbook, "Alerting on SLOs"): a budget burns
 * fast when both the last hour and the last 5 minutes burn it at {@code fast} times the sustainable pace (14.4: 2 %
 * of a 30-day budget in one hour), slowly when both the last 6 hours and the last 30 minutes burn it at {@code slow}
 * times (6: 5 % in six hours). The short window of each pair makes the condition stop soon after the burn does.
 *
 * @param fast  burn rate of the 1 h / 5 min pair
 * @param slow  burn rate of the 6 h / 30 min pair
 */
public record BurnThresholds(double fast, double slow) {

    public static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
    public static final Duration THIRTY_MINUTES = Duration.ofMinutes(30);
    public static final Duration ONE_HOUR = Duration.ofHours(1);
    public static final Duration SIX_HOURS = Duration.ofHours(6);

    /** The windows burn rates are reported for, shortest first. */
    public static final List<Duration> WINDOWS = List.of(FIVE_MINUTES, THIRTY_MINUTES, ONE_HOUR, SIX_HOURS);

    public BurnThresholds {
        if (!(fast > 0 && slow > 0 && Double.isFinite(fast) && Double.isFinite(slow))) {
            throw new IllegalArgumentException("burn-rate thresholds must be positive, got " + fast + " and " + slow);
        }
    }

    public static BurnThresholds defaults() {
        return new BurnThresholds(14.4, 6.0);
    }

    /** The label of a window: {@code 5m}, {@code 30m}, {@code 1h}, {@code 6h}. */
    public static String label(Duration w) {
        return w.toMinutes() < 60 ? w.toMinutes() + "m" : w.toHours() + "h";
    }
}
