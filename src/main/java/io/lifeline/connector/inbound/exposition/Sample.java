package io.lifeline.connector.inbound.exposition;

import java.util.Objects;

/**
 * One sample line: a series (metric name and labels), its value and optional timestamp.
 *
 * @param name             sample name as written (for example {@code http_requests_total} or {@code a_bucket})
 * @param labels           its labels, in the order written
 * @param value            the value ({@code NaN} and infinities allowed)
 * @param timestampMillis  milliseconds since the epoch, or {@link #NO_TIMESTAMP}; OpenMetrics seconds are
 *                         converted (rounded to the millisecond, saturating far outside the long range)
 */
public record Sample(String name, Labels labels, double value, long timestampMillis) {

    /** Marks a sample written without a timestamp. */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    public Sample {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(labels, "labels");
    }

    /** Whether the line carried a timestamp. */
    public boolean hasTimestamp() {
        return timestampMillis != NO_TIMESTAMP;
    }

    /** The value of one label, {@code null} when absent. */
    public String label(String labelName) {
        return labels.get(labelName);
    }
}
