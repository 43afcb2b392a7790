package io.lifeline.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The exposition's format negotiation and the conventions ExpositionFilters applies to framework meters. */
class ExpositionConventionsTest {

    @Test
    void openMetricsOnlyWhenAskedForAndPlainTextIsNotOffered() {
        assertThat(ScopedScrape.contentType(null)).startsWith("text/plain");
        assertThat(ScopedScrape.contentType("*/*")).startsWith("text/plain");
        assertThat(ScopedScrape.contentType("text/plain")).startsWith("text/plain");
        // Prometheus offers both and has always had the text format.
        assertThat(ScopedScrape.contentType("application/openmetrics-text;version=1.0.0;q=0.5,"
                        + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2"))
                .startsWith("text/plain");
        assertThat(ScopedScrape.contentType("application/openmetrics-text; version=1.0.0; charset=utf-8"))
                .startsWith("application/openmetrics-text");
    }

    @Test
    void frameworkMetersGetDescriptionsAndConventionalNames() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(new ExpositionFilters().conventionalExposition());
        Gauge.builder("netty.eventexecutor.tasks.pending", () -> 1).register(registry);
        Gauge.builder("netty.some.future.gauge", () -> 1).register(registry);
        Gauge.builder("system.cpu.count", () -> 2)
                .description("The number of processors")
                .register(registry);
        Gauge.builder("quoted", () -> 1).description("a \"quoted\" word").register(registry);
        registry.more().counter("process.cpu.time", Tags.empty(), 1.0);
        assertThat(registry.get("netty.eventexecutor.tasks.pending")
                        .gauge()
                        .getId()
                        .getDescription())
                .isEqualTo(ExpositionFilters.DESCRIPTIONS.get("netty.eventexecutor.tasks.pending"));
        assertThat(registry.get("netty.some.future.gauge").gauge().getId().getDescription())
                .isEqualTo("Netty some future gauge");
        assertThat(registry.find("system.cpu.count").meters()).isEmpty();
        assertThat(registry.get("system.cpus").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("quoted").gauge().getId().getDescription()).isEqualTo("a quoted word");
        assertThat(registry.find("process.cpu.time").meters()).isEmpty();
        new ExpositionFilters().processCpuSeconds().bindTo(registry);
        Meter cpu = registry.get("process.cpu").meter();
        assertThat(cpu.getId().getBaseUnit()).isEqualTo("seconds");
    }
}
