package io.lifeline.ingest;

import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.metrics.IngestMetrics;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.store.EventLogWriter;
import io.lifeline.store.RetryLaterException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The ingest pipeline behind every transport: dedupe by (source, id), then telemetry straight to the model,
 * lifecycle events to the event log first and to the model once stored (so an acknowledged event is never
 * lost and a stored one is applied exactly once, in order).
 */
@ApplicationScoped
public class IngestPipeline implements IngestGateway {

    private static final Logger LOG = Logger.getLogger(IngestPipeline.class);

    private final EventLogWriter log;
    private final ModelRuntime model;
    private final RecentEventIds recent;
    private final Duration maxFutureSkew;
    private final Clock clock;
    private final TelemetrySampler sampler;
    private final IngestMetrics metrics;
    private final Counter duplicates;
    private volatile boolean open;

    IngestPipeline(EventLogWriter log, ModelRuntime model, IngestConfig config, Clock clock, MeterRegistry registry,
                   IngestMetrics metrics) {
        this.log = log;
        this.model = model;
        this.recent = new RecentEventIds(config.dedupeCapacity());
        this.maxFutureSkew = config.maxFutureSkew();
        this.clock = clock;
        this.sampler = new TelemetrySampler(config.telemetryStoreInterval(), config.telemetryForgetAfter(), clock);
        this.metrics = metrics;
        this.duplicates = Counter.builder("lifeline_ingest_duplicate_events")
                .description("Events dropped as already seen (same source and id)").register(registry);
    }

    /** Lets events in once the model has been rebuilt from the log. */
    public void open() {
        open = true;
    }

    public boolean isOpen() {
        return open;
    }

    /** Remembers a replayed event's identity so that a redelivery after restart is a duplicate. */
    public void rememberReplayed(Event e) {
        recent.add(e.source(), e.id());
    }

    /**
     * Checks what the codec cannot know: that the event is not dated in the future beyond the allowed
     * clock skew. Returns the reason, or null when acceptable.
     */
    String check(Event e) {
        if (e.time().isAfter(clock.instant().plus(maxFutureSkew))) {
            return "time: " + e.time() + " is more than " + maxFutureSkew.toMinutes()
                    + " minutes in the future (clock skew?)";
        }
        return null;
    }

    @Override
    public CompletionStage<IngestReceipt> submit(List<Event> submitted) {
        List<IngestReceipt.Refused> refused = new ArrayList<>();
        List<Event> events = admissible(submitted, refused);
        if (events.isEmpty()) {
            return CompletableFuture.completedFuture(new IngestReceipt(0, 0, refused));
        }
        if (!open) {
            return CompletableFuture.failedFuture(new RetryLaterException("starting: the model is being rebuilt"));
        }
        // Room in the model's queue is taken before anything is remembered or stored: a submission the model cannot
        // take is pushed back whole, and a stored event always has its place in the queue (nothing waits for it).
        ModelRuntime.Admission room;
        try {
            room = model.admit(events);
        } catch (RetryLaterException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<Event> accepted = new ArrayList<>(events.size());
        List<Event> lifecycle = new ArrayList<>();
        // Telemetry the log keeps too, so that replay rebuilds the same model.
        List<Event> sampled = new ArrayList<>();
        int dup = 0;
        for (Event e : events) {
            if (!recent.add(e.source(), e.id())) {
                dup++;
                continue;
            }
            accepted.add(e);
            if (!e.isTelemetry()) {
                lifecycle.add(e);
                sampler.lifecycle(e);
            } else if (sampler.shouldStore(e)) {
                sampled.add(e);
            }
        }
        if (dup > 0) {
            duplicates.increment(dup);
        }
        final int duplicatesInBatch = dup;
        List<Event> toStore = new ArrayList<>(lifecycle.size() + sampled.size());
        toStore.addAll(lifecycle);
        toStore.addAll(sampled);
        try {
            // Every submission queues behind the ones before it, so the model sees each subject's events in the
            // order they were submitted, telemetry and lifecycle alike; lifecycle events only once stored.
            return log.append(toStore, accepted.size() - lifecycle.size()).thenApply(fresh -> {
                Set<Event> old = Collections.newSetFromMap(new IdentityHashMap<>());
                for (int i = 0; i < lifecycle.size(); i++) {
                    if (!fresh[i]) {
                        old.add(lifecycle.get(i));
                    }
                }
                List<Event> apply = old.isEmpty() ? accepted
                        : accepted.stream().filter(e -> !old.contains(e)).toList();
                // Runs on the store writer's thread, in write order.
                model.enqueue(apply, room);
                metrics.accepted(apply);
                return new IngestReceipt(apply.size(), duplicatesInBatch + old.size(), refused);
            }).whenComplete((receipt, failure) -> {
                if (failure != null) {
                    // Never stored: a retry of these events must not be taken for a duplicate.
                    forget(accepted);
                    room.release();
                }
            });
        } catch (RetryLaterException e) {
            forget(accepted);
            room.release();
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The events that pass {@link #check}, in order; the others are added to {@code refused}. Allocates only on refusal. */
    private List<Event> admissible(List<Event> events, List<IngestReceipt.Refused> refused) {
        List<Event> kept = null;
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            String reason = check(e);
            if (reason != null) {
                if (kept == null) {
                    kept = new ArrayList<>(events.subList(0, i));
                }
                refused.add(new IngestReceipt.Refused(i, e.id(), reason));
            } else if (kept != null) {
                kept.add(e);
            }
        }
        return kept == null ? events : kept;
    }

    /**
     * On a graceful stop, stores the latest telemetry the log does not have yet, so that a restart rebuilds the
     * same latest values (a crash loses at most one store interval of them).
     */
    void onStop(@Observes ShutdownEvent ev) {
        open = false;
        List<Event> latest = sampler.drainUnstored();
        if (latest.isEmpty()) {
            return;
        }
        try {
            log.append(latest).get(10, TimeUnit.SECONDS);
            LOG.infof("Stored the latest telemetry of %d jobs and GPUs before stopping", latest.size());
        } catch (Exception e) {
            LOG.warnf("Could not store the latest telemetry before stopping: %s", e.getMessage());
        }
    }

    private void forget(List<Event> events) {
        for (Event e : events) {
            recent.remove(e.source(), e.id());
        }
    }
}
