package io.lifeline.metrics;

import io.lifeline.eventlog.HistoryRecords;
import io.lifeline.eventlog.TimelineLog;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The history projections' writers ({@code job_timeline}, {@code job_records}): what waits to be written and what
 * was dropped because the database was unavailable for longer than their buffers last (the next start-up's replay
 * writes it again).
 */
@Startup
@ApplicationScoped
public class HistoryMetrics {

    HistoryMetrics(MeterRegistry registry, TimelineLog timeline, HistoryRecords records) {
        FunctionCounter.builder("lifeline_history_dropped", timeline, TimelineLog::dropped)
                .tag("projection", "timeline")
                .description("History items dropped from a full buffer while the database was unavailable")
                .register(registry);
        FunctionCounter.builder("lifeline_history_dropped", records, HistoryRecords::dropped)
                .tag("projection", "records")
                .description("History items dropped from a full buffer while the database was unavailable")
                .register(registry);
        Gauge.builder("lifeline_history_buffered", timeline, TimelineLog::buffered)
                .tag("projection", "timeline")
                .description("History items waiting to be written")
                .register(registry);
        Gauge.builder("lifeline_history_buffered", records, HistoryRecords::buffered)
                .tag("projection", "records")
                .description("History items waiting to be written")
                .register(registry);
    }
}
