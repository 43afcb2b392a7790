package io.lifeline.metrics;

import io.micrometer.core.instrument.MeterRegistry;

/** Ingest metrics outside the application, for tests of other packages (the constructor is the container's). */
public final class IngestMetricsForTests {

    private IngestMetricsForTests() {}

    public static IngestMetrics of(MeterRegistry registry) {
        return new IngestMetrics(registry);
    }
}
