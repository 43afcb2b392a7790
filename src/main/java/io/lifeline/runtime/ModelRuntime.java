package io.lifeline.runtime;

import io.lifeline.domain.SavedModel;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.eventlog.AppliedPosition;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Hosts the in-memory model on its single writer thread. Events are applied in the order they are queued
 * (so per-subject order is the order the pipeline hands them over), and reads run on the same thread
 * between batches, so every read sees a consistent model and the model itself needs no locks.
 *
 * <p>The queue is bounded in events and in estimated bytes ({@code lifeline.ingest.apply-queue-events},
 * {@code apply-queue-bytes}). Ingest takes its room before it stores anything ({@link #admit}), so a submission the
 * model has no room for is pushed back whole (HTTP 503, a Kafka pause) and a stored event always has its place.
 */
@ApplicationScoped
public class ModelRuntime {

    private static final Logger LOG = Logger.getLogger(ModelRuntime.class);

    /** Bytes a queued read is counted for. */
    private static final long READ_BYTES = 256;
    /** Outcomes of events the follower applied that were not applied, kept for the replica that stored them. */
    private static final int FOLLOWED_REFUSALS_KEPT = 4096;

    private final LiveModel model;
    /** Batches at the tail, in order; urgent reads at the head. Batches and ordered reads are bounded by {@link #room}. */
    private final LinkedBlockingDeque<Runnable> queue = new LinkedBlockingDeque<>();

    private final QueueRoom room;
    /** The priority lane's batches, run in order by a task put at the head of {@link #queue}. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Queued> urgent =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    private final Thread thread;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AppliedLog position = new AppliedLog();
    private volatile boolean running = true;
    private volatile StoredQueued storedQueued = (lowest, highest) -> {};
    private final java.util.List<ApplyListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /**
     * Model thread only. The outcomes of the newest events the log follower applied and the model did not, by seq: a
     * replica's own stored event reaches the model through the follower when the follower reads it back before the
     * submission is queued (see {@link #applyStored}); the submission's outcome is then the follower's.
     */
    private final Map<Long, ApplyOutcome> followedRefusals = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, ApplyOutcome> eldest) {
            return size() > FOLLOWED_REFUSALS_KEPT;
        }
    };

    /**
     * Told of every event right after it is applied, on the model's thread, with what it did to the model and the
     * model itself: it must be quick and must not keep references to mutable state.
     */
    @FunctionalInterface
    public interface ApplyListener {
        void applied(Event e, ApplyOutcome outcome, LiveModel model);
    }

    ModelRuntime(LiveModel model, io.lifeline.config.IngestConfig config) {
        this.model = model;
        this.room = new QueueRoom(
                config.applyQueueEvents(), config.applyQueueBytes().asLongValue());
        // Assigned before it starts: the model thread compares itself with this field.
        this.thread = Threads.daemon("lifeline-model", this::run);
        this.thread.start();
    }

    /**
     * Queues events to be applied, waiting up to {@code timeout} for room (the start-up replay, which has nobody to
     * push back to).
     *
     * @throws RetryLaterException when the model cannot keep up for that long
     */
    public void enqueue(List<Event> events, Duration timeout) {
        if (events.isEmpty()) {
            return;
        }
        put(() -> applyAll(events), events.size(), EventFootprint.of(events), timeout);
    }

    /**
     * Takes room in the queue for {@code events} now, without waiting: what a transport does before it stores
     * anything, so that a submission the model cannot take is pushed back before it is stored. The room is given
     * back when the events are taken by the model thread ({@link #enqueue(List, Admission)}), or by
     * {@link Admission#release()} when they are not queued after all.
     *
     * @throws RetryLaterException when the queue is full
     */
    public Admission admit(List<Event> events) {
        long bytes = EventFootprint.of(events);
        if (!room.tryTake(events.size(), bytes)) {
            throw new RetryLaterException("model busy: " + room.events() + " events (" + room.bytes() / (1024 * 1024)
                    + " MiB) waiting to be applied; retry later");
        }
        return new Admission(events.size(), bytes);
    }

    /**
     * Queues events in room taken by {@link #admit} (the same events, or fewer once duplicates are left out); never
     * waits. The room is given back when the model thread takes them.
     */
    public void enqueue(List<Event> events, Admission admission) {
        if (events.isEmpty()) {
            admission.release();
            return;
        }
        queue.offerLast(new Queued(() -> applyAll(events), admission));
    }

    /**
     * Queues events this replica has just stored (with their {@code seqs}, 0 for telemetry the log does not keep), in
     * room taken by {@link #admit} before storing; never waits. Each is applied unless the log follower handed it
     * over first.
     *
     * @return each event's outcome, in order, once all of them are applied (on the model's thread): what the answer to
     *         their sender says, with no read of the store
     */
    public CompletableFuture<List<ApplyOutcome>> enqueueStored(List<Event> events, long[] seqs, Admission admission) {
        if (events.isEmpty()) {
            admission.release();
            return CompletableFuture.completedFuture(List.of());
        }
        CompletableFuture<List<ApplyOutcome>> outcomes = new CompletableFuture<>();
        queue.offerLast(new Queued(() -> applyStored(events, seqs, outcomes), admission));
        queuedHere(seqs);
        return outcomes;
    }

    /**
     * Applies events this replica stored, unless the follower handed them over first (then the outcome is the one the
     * follower's application had), and completes {@code outcomes} with what each did.
     */
    private void applyStored(List<Event> events, long[] seqs, CompletableFuture<List<ApplyOutcome>> outcomes) {
        ApplyOutcome[] out = new ApplyOutcome[events.size()];
        try {
            for (int i = 0; i < events.size(); i++) {
                if (seqs[i] == 0 || position.takeStored(seqs[i])) {
                    out[i] = applyOne(events.get(i));
                } else {
                    out[i] = followedRefusals.getOrDefault(seqs[i], ApplyOutcome.CHANGED);
                }
            }
        } finally {
            for (int i = 0; i < out.length; i++) {
                if (out[i] == null) {
                    out[i] = ApplyOutcome.notApplied(NotAppliedReason.FAILED, "the model stopped before applying it");
                }
            }
            outcomes.complete(Arrays.asList(out));
        }
    }

    /** Tells the listener of a stored submission's seqs, now that it is queued ahead of whatever comes next. */
    private void queuedHere(long[] seqs) {
        long lowest = Long.MAX_VALUE;
        long highest = 0;
        for (long seq : seqs) {
            if (seq != 0) {
                lowest = Math.min(lowest, seq);
                highest = Math.max(highest, seq);
            }
        }
        if (highest > 0) {
            // One transaction's rows: no other writer's row lies between them (the log's commit-order lock).
            storedQueued.queued(lowest, highest);
        }
    }

    /**
     * Tells {@code listener} of the seqs (lowest and highest) of each submission this replica stored, once it is queued
     * for the model: anything queued later (the follower's "passed" included) is applied after it, so the log follower
     * need not read those rows back.
     */
    public void onStoredQueued(StoredQueued listener) {
        storedQueued = listener;
    }

    /** See {@link #onStoredQueued}. */
    @FunctionalInterface
    public interface StoredQueued {
        void queued(long lowest, long highest);
    }

    /**
     * The log follower moved past every row up to {@code seq}: rows this replica stored and applied, or none (see
     * {@code EventLogTail.Sink#passed}). Queued behind what the follower handed over before.
     *
     * @throws RetryLaterException when the model cannot keep up for that long
     */
    public void enqueuePassed(long seq, Duration timeout) {
        put(() -> position.passed(seq), 1, READ_BYTES, timeout);
    }

    /**
     * Like {@link #enqueueStored}, for the priority lane's events (interruption notices, XIDs, trainer failures):
     * applied ahead of the batches waiting, and so before the policies see the telemetry queued before them; among
     * themselves in the order they were queued.
     */
    public CompletableFuture<List<ApplyOutcome>> enqueueUrgent(List<Event> events, long[] seqs, Admission admission) {
        if (events.isEmpty()) {
            admission.release();
            return CompletableFuture.completedFuture(List.of());
        }
        CompletableFuture<List<ApplyOutcome>> outcomes = new CompletableFuture<>();
        urgent.add(new Queued(() -> applyStored(events, seqs, outcomes), admission));
        queue.offerFirst(this::runUrgent);
        queuedHere(seqs);
        return outcomes;
    }

    /** Runs every urgent batch waiting, oldest first (several may have been put at the head of the queue at once). */
    private void runUrgent() {
        Queued q;
        while ((q = urgent.poll()) != null) {
            q.admission().release();
            q.task().run();
        }
    }

    /**
     * Records that the events stored with {@code seqs} (0 for none) are applied already: telemetry the model took
     * before it was stored (the latest samples stored at shutdown), which the follower must not apply again.
     */
    public void markApplied(long[] seqs) {
        queue.offerLast(() -> {
            for (long seq : seqs) {
                if (seq > 0) {
                    position.takeStored(seq);
                }
            }
        });
    }

    /**
     * Queues events read back from the log, in seq order ({@code events[i]} may be null for a row that no longer
     * decodes: its seq still moves the position), applied unless this replica applied them when it stored them.
     *
     * @throws RetryLaterException when the model cannot keep up for that long
     */
    public void enqueueFollowed(List<Event> events, long[] seqs, Duration timeout) {
        if (events.isEmpty()) {
            return;
        }
        put(
                () -> {
                    for (int i = 0; i < events.size(); i++) {
                        if (position.takeFollowed(seqs[i]) && events.get(i) != null) {
                            ApplyOutcome outcome = applyOne(events.get(i));
                            if (!outcome.applied()) {
                                followedRefusals.put(seqs[i], outcome);
                            }
                        }
                    }
                },
                events.size(),
                EventFootprint.of(events),
                timeout);
    }

    /**
     * On the model thread (inside {@link #read} or {@link #readNow}): how far into the stored log the model has applied
     * events. A model checkpoint records it with the model.
     *
     * @throws IllegalStateException when called on another thread
     */
    public AppliedPosition appliedPosition() {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("the applied position is read on the model thread");
        }
        return position.position();
    }

    /**
     * Takes back a saved model into the model, which must not have applied anything yet, standing at {@code at} in the
     * stored log. Completes on the model thread once done.
     */
    public CompletableFuture<Void> restore(SavedModel saved, AppliedPosition at) {
        return read(m -> {
            m.restore(saved);
            position.reset(at);
            return null;
        });
    }

    /**
     * Adds a listener told of every event right after it is applied, on the model's thread, with its outcome and the
     * model: it must be quick and must not keep references to mutable state (policies react to notices this way, with
     * no queue in between).
     */
    public void addApplyListener(ApplyListener listener) {
        listeners.add(listener);
    }

    /** Runs a read of the model on its thread; the function must not keep references to mutable state. */
    public <T> CompletableFuture<T> read(Function<LiveModel, T> query) {
        CompletableFuture<T> f = new CompletableFuture<>();
        put(answer(query, f), 1, READ_BYTES, Duration.ofSeconds(30));
        return f;
    }

    /**
     * Runs a read ahead of the batches waiting to be applied, on the model's thread: it sees the model as it is now,
     * not including events queued but not yet applied. For callers that act on the present state and must not wait
     * behind a full ingest queue (the action executor); {@link #read} keeps the order with ingest.
     */
    public <T> CompletableFuture<T> readNow(Function<LiveModel, T> query) {
        CompletableFuture<T> f = new CompletableFuture<>();
        queue.offerFirst(answer(query, f));
        return f;
    }

    private <T> Runnable answer(Function<LiveModel, T> query, CompletableFuture<T> f) {
        return () -> {
            try {
                f.complete(query.apply(model));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        };
    }

    /** Completes once everything queued before this call has been applied. */
    public CompletableFuture<Void> barrier() {
        return read(m -> null);
    }

    public long appliedCount() {
        return applied.get();
    }

    public long failedCount() {
        return failed.get();
    }

    /** Batches and reads waiting for the model thread. */
    public int queued() {
        return queue.size();
    }

    /** Events waiting for the model thread (ordered reads count as one). */
    public long queuedEvents() {
        return room.events();
    }

    /** Estimated heap bytes of what waits for the model thread. */
    public long queuedBytes() {
        return room.bytes();
    }

    private void put(Runnable task, int events, long bytes, Duration timeout) {
        try {
            if (!room.take(events, bytes, timeout.toMillis())) {
                throw new RetryLaterException(
                        "model busy: " + room.events() + " events waiting to be applied; retry later");
            }
            queue.offerLast(new Queued(task, new Admission(events, bytes)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetryLaterException("interrupted");
        }
    }

    private void applyAll(List<Event> events) {
        for (Event e : events) {
            applyOne(e);
        }
    }

    private ApplyOutcome applyOne(Event e) {
        ApplyOutcome outcome;
        try {
            outcome = model.apply(e);
            applied.incrementAndGet();
        } catch (RuntimeException ex) {
            // One event the model cannot take must not stop the others: count it and go on.
            failed.incrementAndGet();
            try (LogContext about = about(e)) {
                LOG.warnf(ex, "Model could not apply %s %s of %s", e.type().wireName(), e.id(), e.subject());
            }
            return ApplyOutcome.notApplied(NotAppliedReason.FAILED, "the model failed on it: " + ex);
        }
        for (ApplyListener l : listeners) {
            try {
                l.applied(e, outcome, model);
            } catch (RuntimeException ex) {
                try (LogContext about = about(e)) {
                    LOG.warnf(ex, "A listener failed on %s %s of %s", e.type().wireName(), e.id(), e.subject());
                }
            }
        }
        return outcome;
    }

    /**
     * The log context of a line about an event: its subject, a node or a job. Opened for such a line only, never
     * around every event's apply and listeners (the per-event path stays free of it).
     */
    private static LogContext about(Event e) {
        return e.type().family().subjectIsNode() ? LogContext.node(e.subject()) : LogContext.job(e.subject());
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                Runnable task = queue.pollFirst(100, TimeUnit.MILLISECONDS);
                if (task instanceof Queued q) {
                    q.admission().release();
                    q.task().run();
                } else if (task != null) {
                    task.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A task that holds its room in the queue until the model thread takes it. */
    private record Queued(Runnable task, Admission admission) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }

    /** Room held in the model's queue (see {@link #admit}); giving it back twice gives it back once. */
    public final class Admission {
        private final int events;
        private final long bytes;
        private final AtomicBoolean released = new AtomicBoolean();

        private Admission(int events, long bytes) {
            this.events = events;
            this.bytes = bytes;
        }

        /** Gives the room back (the events will not be queued, or the model thread took them). */
        public void release() {
            if (released.compareAndSet(false, true)) {
                room.give(events, bytes);
            }
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
