package io.lifeline.domain.alert;

import java.time.Duration;
import java.util.Objects;

/**
 * How one rule behaves (for one namespace, or by default).
 *
 * @param enabled      whether the rule is evaluated at all
 * @param threshold    the rule's number (see {@link AlertRule}: a ratio, a count or a queue depth)
 * @param forDuration  how long the condition must hold before the alert fires (pending until then); zero fires at once
 * @param window       the look-back window of count and event rules; ignored by the others
 * @param severity     the {@code severity} label
 */
public record RuleSettings(
        boolean enabled, double threshold, Duration forDuration, Duration window, Severity severity) {

    public RuleSettings {
        Objects.requireNonNull(forDuration, "forDuration");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(severity, "severity");
        if (forDuration.isNegative() || window.isNegative()) {
            throw new IllegalArgumentException("for and window must not be negative");
        }
    }

    /**
     * Changes to settings; null fields keep what they change.
     *
     * @param enabled      new enabled flag, or null
     * @param threshold    new threshold, or null
     * @param forDuration  new {@code for}, or null
     * @param window       new window, or null
     * @param severity     new severity, or null
     */
    @SuppressWarnings("JavaLangClash") // the settings' own word; java.lang.Override is never needed inside
    public record Override(
            Boolean enabled, Double threshold, Duration forDuration, Duration window, Severity severity) {

        /** No change at all. */
        public static Override none() {
            return new Override(null, null, null, null, null);
        }

        /** Only switches the rule off. */
        public static Override disable() {
            return new Override(false, null, null, null, null);
        }

        /** {@code base} with this override's non-null fields. */
        public RuleSettings applyTo(RuleSettings base) {
            return new RuleSettings(
                    enabled != null ? enabled : base.enabled(),
                    threshold != null ? threshold : base.threshold(),
                    forDuration != null ? forDuration : base.forDuration(),
                    window != null ? window : base.window(),
                    severity != null ? severity : base.severity());
        }
    }
}
