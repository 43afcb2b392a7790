package io.lifeline.connector.inbound.exposition;

/**
 * What the {@code # TYPE}, {@code # HELP} and {@code # UNIT} lines said about one metric family.
 *
 * @param name  family name
 * @param type  declared type, {@code null} when no TYPE line was seen
 * @param help  help text (unescaped), {@code null} when no HELP line was seen
 * @param unit  unit (OpenMetrics only), {@code null} when no UNIT line was seen
 */
public record MetricMetadata(String name, MetricType type, String help, String unit) {

    MetricMetadata withType(MetricType t) {
        return new MetricMetadata(name, t, help, unit);
    }

    MetricMetadata withHelp(String h) {
        return new MetricMetadata(name, type, h, unit);
    }

    MetricMetadata withUnit(String u) {
        return new MetricMetadata(name, type, help, u);
    }
}
