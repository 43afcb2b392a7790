package io.lifeline.ingest;

import io.lifeline.codec.Refusal;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.Appended;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.eventlog.EventLogWriter;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.metrics.IngestMetrics;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The ingest pipeline behind every transport: dedupe by (source, id) (in memory here, durably in the log), then
 * telemetry straight to the model, lifecycle events to the event log first and to the model once stored (so an
 * acknowledged event is never lost and a stored one is applied exactly once, in order). Events another replica stored
 * reach this replica's model through the log follower ({@link io.lifeline.eventlog.EventLogTail}).
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
    /** Why a submission is pushed back while ingest is not open: written before {@code open} changes. */
    private volatile String closedBecause = "starting: the model is being rebuilt";

    IngestPipeline(
            EventLogWriter log,
            ModelRuntime model,
            IngestConfig config,
            Clock clock,
            MeterRegistry registry,
            IngestMetrics metrics) {
        this.log = log;
        this.model = model;
        this.recent = new RecentEventIds(config.dedupeCapacity());
        this.maxFutureSkew = config.maxFutureSkew();
        this.clock = clock;
        this.sampler = new TelemetrySampler(config.telemetryStoreInterval(), config.telemetryForgetAfter(), clock);
        this.metrics = metrics;
        this.duplicates = Counter.builder("lifeline_ingest_duplicate_events")
                .description("Events dropped as already seen (same source and id)")
                .register(registry);
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
        return check(e, clock.instant().plus(maxFutureSkew));
    }

    /** {@link #check(Event)} against a limit read from the clock once for a whole submission. */
    private String check(Event e, Instant latest) {
        if (e.time().isAfter(latest)) {
            return "time: " + e.time() + " is more than " + maxFutureSkew.toMinutes()
                    + " minutes in the future (clock skew?)";
        }
        return null;
    }

    @Override
    public CompletionStage<IngestReceipt> submit(List<Event> submitted, ConsumedOffsets offsets) {
        PriorityLane.Split split = PriorityLane.split(submitted);
        if (split == null) {
            return submitPart(submitted, offsets, false);
        }
        // The priority lane first: stored before anything queued after it, and ahead of the model's queue.
        CompletableFuture<IngestReceipt> urgent =
                submitPart(split.urgent(), null, true).toCompletableFuture();
        if (urgent.isCompletedExceptionally()) {
            // Pushed back at once: the rest (and its offsets) must not be stored past the events refused here.
            return urgent;
        }
        return urgent.thenCombine(submitPart(split.rest(), offsets, false), split::merge);
    }

    private CompletionStage<IngestReceipt> submitPart(List<Event> submitted, ConsumedOffsets offsets, boolean urgent) {
        List<Refusal> refused = new ArrayList<>();
        List<Event> events = admissible(submitted, refused);
        if (events.isEmpty() && offsets == null) {
            return CompletableFuture.completedFuture(new IngestReceipt(0, 0, refused));
        }
        if (!open) {
            return CompletableFuture.failedFuture(new RetryLaterException(closedBecause));
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
        List<Event> toStore = new ArrayList<>();
        int dup = 0;
        for (Event e : events) {
            if (!recent.add(e.source(), e.id())) {
                dup++;
                continue;
            }
            accepted.add(e);
            if (!e.isTelemetry()) {
                toStore.add(e);
                sampler.lifecycle(e);
            } else if (sampler.shouldStore(e)) {
                // Telemetry the log keeps too, so that replay (and the other replicas) rebuild the same model.
                toStore.add(e);
            }
        }
        if (dup > 0) {
            duplicates.increment(dup);
        }
        final int duplicatesInBatch = dup;
        try {
            // Every submission queues behind the ones before it, so the model sees each subject's events in the
            // order they were submitted, telemetry and lifecycle alike; stored events only once stored.
            CompletableFuture<Appended> write = urgent && toStore.isEmpty()
                    ? CompletableFuture.completedFuture(new Appended(new long[0], List.of()))
                    : urgent
                            ? log.appendUrgent(toStore)
                            : log.append(toStore, accepted.size() - toStore.size(), offsets);
            return write.thenApply(appended -> {
                        long[] stored = appended.seqs();
                        // Not applied here: what the log had already (the follower applies the stored one), what it
                        // refused.
                        Set<Event> old = Collections.newSetFromMap(new IdentityHashMap<>());
                        List<Refusal> allRefused = refused;
                        if (!appended.refused().isEmpty()) {
                            // Refused by the store on content: neither stored nor applied (a refused telemetry sample
                            // too,
                            // so that a replay rebuilds what the live model saw), and named in the receipt.
                            allRefused = storeRefusals(submitted, toStore, appended.refused(), refused, old);
                        }
                        Map<Event, Long> seqOf = new IdentityHashMap<>(toStore.size() * 2);
                        int storedBefore = 0;
                        for (int i = 0; i < toStore.size(); i++) {
                            seqOf.put(toStore.get(i), stored[i]);
                            if (stored[i] == 0 && old.add(toStore.get(i))) {
                                storedBefore++;
                            }
                        }
                        List<Event> apply = new ArrayList<>(accepted.size());
                        long[] seqs = new long[accepted.size()];
                        for (Event e : accepted) {
                            if (old.contains(e)) {
                                continue;
                            }
                            Long seq = seqOf.get(e);
                            seqs[apply.size()] = seq == null ? 0 : seq;
                            apply.add(e);
                        }
                        // Runs on the store writer's thread, in write order, into the room taken before storing: never
                        // waits.
                        CompletableFuture<List<ApplyOutcome>> outcomes = urgent
                                ? model.enqueueUrgent(apply, seqs, room)
                                : model.enqueueStored(apply, seqs, room);
                        metrics.accepted(apply);
                        // Completed on the model's thread: what is made of it is made on another.
                        CompletionStage<IngestReceipt.Applied> applied =
                                outcomes.thenApplyAsync(o -> applied(submitted, apply, o), ForkJoinPool.commonPool());
                        return new IngestReceipt(apply.size(), duplicatesInBatch + storedBefore, allRefused, applied);
                    })
                    .whenComplete((receipt, failure) -> {
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

    /**
     * What the model did with {@code applied} (a part of {@code submitted}), given each one's outcome: the events it
     * did not apply, by their index in {@code submitted}, each counted by reason.
     */
    private IngestReceipt.Applied applied(List<Event> submitted, List<Event> applied, List<ApplyOutcome> outcomes) {
        Map<Event, ApplyOutcome> refused = null;
        for (int i = 0; i < outcomes.size(); i++) {
            ApplyOutcome o = outcomes.get(i);
            if (!o.applied()) {
                if (refused == null) {
                    refused = new IdentityHashMap<>();
                }
                refused.put(applied.get(i), o);
                metrics.notApplied(applied.get(i), o.reason());
            }
        }
        if (refused == null) {
            return IngestReceipt.Applied.all(applied.size());
        }
        List<Refusal> out = new ArrayList<>(refused.size());
        for (int i = 0; i < submitted.size() && out.size() < refused.size(); i++) {
            ApplyOutcome o = refused.get(submitted.get(i));
            if (o != null) {
                out.add(new Refusal(i, submitted.get(i).id(), o.reason().wire(), o.detail()));
            }
        }
        return new IngestReceipt.Applied(applied.size() - refused.size(), out);
    }

    /**
     * Adds the events the store refused to the gateway's own refusals, by their index in {@code submitted}, and
     * marks them in {@code notApplied}; forgets them so that a corrected resend is not taken for a duplicate.
     */
    private List<Refusal> storeRefusals(
            List<Event> submitted,
            List<Event> stored,
            List<Refusal> byStore,
            List<Refusal> own,
            Set<Event> notApplied) {
        Map<Event, Integer> position = new IdentityHashMap<>();
        for (int i = submitted.size() - 1; i >= 0; i--) {
            position.put(submitted.get(i), i);
        }
        List<Refusal> all = new ArrayList<>(own);
        for (Refusal r : byStore) {
            Event e = stored.get(r.index());
            notApplied.add(e);
            recent.remove(e.source(), e.id());
            all.add(r.at(position.get(e)));
        }
        all.sort(Comparator.comparingInt(Refusal::index));
        return all;
    }

    /** The events that pass {@link #check}, in order; the others are added to {@code refused}. Allocates only on refusal. */
    private List<Event> admissible(List<Event> events, List<Refusal> refused) {
        List<Event> kept = null;
        Instant latest = clock.instant().plus(maxFutureSkew);
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            String reason = check(e, latest);
            if (reason != null) {
                if (kept == null) {
                    kept = new ArrayList<>(events.subList(0, i));
                }
                refused.add(new Refusal(i, e.id(), reason));
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
    void onStop(@Observes @Priority(ShutdownOrder.INGEST) ShutdownEvent ev) {
        closedBecause = "stopping: ingest is closed";
        open = false;
        List<Event> latest = sampler.drainUnstored();
        if (latest.isEmpty()) {
            return;
        }
        try {
            // Applied already (as telemetry passengers): the model's position must say so, or a start from the
            // checkpoint taken next would apply them twice.
            model.markApplied(log.append(latest).get(10, TimeUnit.SECONDS).seqs());
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
