package io.lifeline.alert.receiver;

import java.util.Locale;

/** How one delivery attempt ended; the {@code outcome} label of {@code lifeline_webhook_deliveries_total}. */
public enum DeliveryOutcome {
    /** The receiver accepted it (2xx). */
    DELIVERED,
    /** It failed in a way worth retrying (5xx, 408, 429, timeout, connection error) and will be retried. */
    RETRY,
    /** It failed for good: a 4xx refusal, or the attempts ran out, or the receiver is no longer configured. */
    FAILED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
