package io.lifeline.connector.inbound.hang;

import io.lifeline.config.HangsConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Judges the training jobs every {@code lifeline.hangs.interval} on the leading replica and writes a
 * {@code job.hang_suspected} into the event log for each newly suspected one, with the GPU telemetry that corroborates
 * it. The event, not this detector, opens the incident: every replica and every rebuild of the model applies the same
 * one. The event's id is the job and the start of the hang, so a repeat (a new leader judging the same hang) is a
 * duplicate.
 *
 * <p>Metrics: {@code lifeline_hang_detections_total{kind}} and {@code lifeline_hang_time_to_detect_seconds{kind}} (from
 * the last progress to the detection).
 */
@ApplicationScoped
public class HangDetector {

    static final String SOURCE = "lifeline/hang-detector";
    private static final Logger LOG = Logger.getLogger(HangDetector.class);

    private final ModelRuntime runtime;
    private final IngestGateway gateway;
    private final Leadership leadership;
    private final HangsConfig config;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Map<String, Long> reported = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;

    HangDetector(
            ModelRuntime runtime,
            IngestGateway gateway,
            Leadership leadership,
            HangsConfig config,
            Clock clock,
            MeterRegistry registry) {
        this.runtime = runtime;
        this.gateway = gateway;
        this.leadership = leadership;
        this.config = config;
        this.clock = clock;
        this.registry = registry;
        for (String kind : List.of("training", "save", "phase", "startup", "status")) {
            detections(kind);
            timeToDetect(kind);
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // scan() catches and logs its own failures
    void onOpened(@Observes IngestOpened opened) {
        if (!config.enabled()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-hang-detector"));
        long period = config.interval().toMillis();
        timer.scheduleWithFixedDelay(this::scan, period, period, TimeUnit.MILLISECONDS);
    }

    /** One round: judge, then report what is newly suspected. */
    void scan() {
        try {
            if (!leadership.isLeader()) {
                return;
            }
            List<Event> events = runtime.read(m -> {
                        List<Event> out = new ArrayList<>();
                        for (Map.Entry<String, HangVerdict> e : m.jobs().hangSuspects()) {
                            List<String> nodes = m.jobs()
                                    .membership(e.getKey())
                                    .map(mv -> mv.placement().stream()
                                            .map(p -> p.node())
                                            .toList())
                                    .orElse(List.of());
                            HangVerdict v =
                                    e.getValue().withEvidence(HangEvidence.gpus(m.fleet(), e.getValue(), nodes));
                            out.add(event(e.getKey(), v, clock.instant()));
                        }
                        return out;
                    })
                    .get(30, TimeUnit.SECONDS);
            List<Event> fresh = new ArrayList<>();
            for (Event e : events) {
                JobData.HangSuspected h = (JobData.HangSuspected) e.data();
                Long before = reported.get(e.subject());
                // One report per hang: a job already reported since this hang began waits for the model to apply it.
                if (before == null || before < h.since().toEpochMilli()) {
                    fresh.add(e);
                }
            }
            if (fresh.isEmpty()) {
                return;
            }
            gateway.submit(fresh).toCompletableFuture().get(30, TimeUnit.SECONDS);
            for (Event e : fresh) {
                JobData.HangSuspected h = (JobData.HangSuspected) e.data();
                reported.put(e.subject(), clock.millis());
                detections(h.kind()).increment();
                timeToDetect(h.kind()).record(h.stalledSeconds());
                LOG.warnf(
                        "Job %s suspected hung (%s): no progress for %.0f s, threshold %.0f s (%s); suspects %s",
                        e.subject(), h.kind(), h.stalledSeconds(), h.thresholdSeconds(), h.basis(), h.suspects());
            }
            forgetOld();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("Hang check failed: %s", e.toString());
        }
    }

    private void forgetOld() {
        long horizon = clock.millis() - config.ceiling().toMillis() * 4;
        reported.values().removeIf(t -> t < horizon);
    }

    /** The event a suspected hang is reported as (also what the goodput bench's moved-clock runs write). */
    public static Event event(String job, HangVerdict v, Instant now) {
        Instant since = v.since();
        JobData.HangSuspected data = new JobData.HangSuspected(
                v.kind(),
                since,
                Math.round(v.stalledSeconds() * 10) / 10.0,
                Math.round(v.thresholdSeconds() * 10) / 10.0,
                v.basis(),
                v.phase(),
                v.suspects(),
                evidence(v));
        // Whole seconds: two judgements of one hang name the same start, and so the same event.
        String id = "hang-" + job.replace('/', '.') + "-" + since.getEpochSecond();
        return new Event(id, SOURCE, EventType.JOB_HANG_SUSPECTED, job, now, data);
    }

    private static List<String> evidence(HangVerdict v) {
        List<String> out = new ArrayList<>(v.evidence());
        if (!v.silentRanks().isEmpty()) {
            out.add(0, "silent ranks (no heartbeat): " + v.silentRanks());
        }
        return out.size() > 32 ? out.subList(0, 32) : out;
    }

    private Counter detections(String kind) {
        return Counter.builder("lifeline_hang_detections")
                .description("Jobs suspected hung (alive, no progress past their threshold), by what stalled")
                .tag("kind", kind)
                .register(registry);
    }

    private DistributionSummary timeToDetect(String kind) {
        return DistributionSummary.builder("lifeline_hang_time_to_detect_seconds")
                .description("From a hung job's last progress to its detection")
                .baseUnit("seconds")
                .tag("kind", kind)
                .serviceLevelObjectives(10, 30, 60, 120, 300, 600, 1800)
                .register(registry);
    }

    /**
     * Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes: a timer left
     * running would judge a stopped application's model (and, in tests, start it again inside the next one).
     */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
