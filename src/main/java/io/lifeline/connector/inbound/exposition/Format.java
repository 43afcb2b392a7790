package io.lifeline.connector.inbound.exposition;

import java.util.Locale;

/**
 * The two text exposition formats Lifeline reads. Prometheus text is parsed leniently, as Prometheus itself
 * tolerates it; OpenMetrics is parsed strictly, as its conformance suite demands.
 */
public enum Format {
    /** Prometheus text format 0.0.4 ({@code text/plain; version=0.0.4}), including the quoted UTF-8 name syntax. */
    PROMETHEUS_TEXT,
    /** OpenMetrics 1.0 text ({@code application/openmetrics-text; version=1.0.0}). */
    OPENMETRICS;

    /**
     * Picks the format from an HTTP {@code Content-Type}: OpenMetrics for {@code application/openmetrics-text},
     * Prometheus text for anything else (including a missing header), as Prometheus' scraper does.
     */
    public static Format fromContentType(String contentType) {
        if (contentType != null
                && contentType.toLowerCase(Locale.ROOT).trim().startsWith("application/openmetrics-text")) {
            return OPENMETRICS;
        }
        return PROMETHEUS_TEXT;
    }
}
