package io.lifeline.connector.inbound.exposition;

/** The type a {@code # TYPE} line declares for a metric family. */
public enum MetricType {
    COUNTER("counter"),
    GAUGE("gauge"),
    HISTOGRAM("histogram"),
    GAUGEHISTOGRAM("gaugehistogram"),
    SUMMARY("summary"),
    STATESET("stateset"),
    INFO("info"),
    UNKNOWN("unknown");

    private final String wireName;

    MetricType(String wireName) {
        this.wireName = wireName;
    }

    /** The name used on a {@code # TYPE} line of OpenMetrics. */
    public String wireName() {
        return wireName;
    }

    /** OpenMetrics type names (exact, lower case); {@code null} when not one of them ({@code untyped} is not). */
    public static MetricType fromOpenMetrics(String s) {
        for (MetricType t : values()) {
            if (t.wireName.equals(s)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Prometheus text type names: {@code counter, gauge, histogram, summary, untyped}; the OpenMetrics names are
     * accepted too, since some exporters emit them on text/plain. {@code null} when unknown.
     */
    public static MetricType fromPrometheus(String s) {
        if ("untyped".equals(s)) {
            return UNKNOWN;
        }
        return fromOpenMetrics(s);
    }
}
