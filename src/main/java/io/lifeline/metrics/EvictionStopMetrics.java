package io.lifeline.metrics;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.StopRequest;
import io.lifeline.metrics.SeriesSnapshot.IncidentSample;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code lifeline_eviction_stop_seconds{request,cause}}: per incident, the time from the request to stop a job's
 * workers (a pod eviction, a Kueue preemption, eviction or requeue) to the first sign that they stopped (Kueue #6122
 * asks the same of the scheduler). Each incident is observed once, when its time is first measured. Labels are
 * bounded: {@link StopRequest} × {@link IncidentCause}.
 */
final class EvictionStopMetrics {

    /** From an immediate exit to a long grace period and a checkpoint on the way out. */
    private static final Duration[] BUCKETS = {
        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
        Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10),
        Duration.ofMinutes(30)
    };

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    EvictionStopMetrics(MeterRegistry registry) {
        this.registry = registry;
        // The usual pairs exist from the start at 0, so that rate() sees the first incident too.
        timer(StopRequest.POD_EVICTION, IncidentCause.MANUAL);
        timer(StopRequest.WORKLOAD_PREEMPTION, IncidentCause.PREEMPTION);
        timer(StopRequest.WORKLOAD_EVICTION, IncidentCause.MANUAL);
        timer(StopRequest.WORKLOAD_REQUEUE, IncidentCause.MANUAL);
    }

    /** Observes one incident's measured time (a negative one, from skewed clocks, counts as 0). */
    void observe(IncidentSample i) {
        if (i.stopRequest() == null || i.evictionStopMillis() == null) {
            return;
        }
        timer(i.stopRequest(), i.cause()).record(Duration.ofMillis(Math.max(0, i.evictionStopMillis())));
    }

    private Timer timer(StopRequest request, IncidentCause cause) {
        String c = cause.name().toLowerCase(Locale.ROOT);
        return timers.computeIfAbsent(
                request.metricLabel() + '\u0000' + c,
                k -> Timer.builder("lifeline_eviction_stop")
                        .description(
                                "Time from the request to stop a job's workers (pod eviction, Kueue preemption, eviction "
                                        + "or requeue) to the first sign they stopped, per incident")
                        .tag("request", request.metricLabel())
                        .tag("cause", c)
                        .serviceLevelObjectives(BUCKETS)
                        .minimumExpectedValue(BUCKETS[0])
                        .maximumExpectedValue(BUCKETS[BUCKETS.length - 1])
                        .register(registry));
    }
}
