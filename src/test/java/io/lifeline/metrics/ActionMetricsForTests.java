package io.lifeline.metrics;

import io.micrometer.core.instrument.MeterRegistry;

/** Action metrics outside the application, for tests of other packages (the constructor is the container's). */
public final class ActionMetricsForTests {

    private ActionMetricsForTests() {}

    public static ActionMetrics of(MeterRegistry registry) {
        return new ActionMetrics(registry);
    }
}
