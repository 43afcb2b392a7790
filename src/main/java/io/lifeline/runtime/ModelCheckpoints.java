package io.lifeline.runtime;

import io.lifeline.config.ModelConfig;
import io.lifeline.domain.SavedModel;
import io.lifeline.eventlog.AppliedPosition;
import io.lifeline.eventlog.ModelCheckpointStore;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Checkpoints of the whole model in PostgreSQL, so that a start restores the newest one and replays only the events
 * after it, and keeps what the log's retention has dropped (jobs, nodes, checkpoints, open incidents).
 *
 * <p>Taking one: the model thread saves the model ({@code SavedModel}, plain records: reference copies for what is
 * immutable) together with its {@link ModelRuntime#appliedPosition()}, ahead of queued ingest batches; this class's
 * own thread then encodes and writes it, so the model thread is held only for the save. One is taken once the start-up
 * replay is done, every {@code lifeline.model.checkpoint-interval}, and at shutdown; none is taken while the position
 * is unknown (events were applied whose place in the log was not given), since a checkpoint must say exactly which
 * events it holds.
 */
@ApplicationScoped
public class ModelCheckpoints {

    private static final Logger LOG = Logger.getLogger(ModelCheckpoints.class);
    private static final long SAVE_TIMEOUT_SECONDS = 60;

    private final ModelRuntime runtime;
    private final ModelCheckpointStore store;
    private final ModelConfig config;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private volatile boolean started;
    private volatile long written;
    /** Counted by the starting thread and by this class's own thread. */
    private final AtomicLong failed = new AtomicLong();

    private volatile long lastHoldNanos;
    private volatile long lastBytes;
    private volatile Instant lastWritten;

    ModelCheckpoints(ModelRuntime runtime, ModelCheckpointStore store, ModelConfig config, Clock clock) {
        this.runtime = runtime;
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-checkpoint"));
    }

    /** A save taken on the model thread, to be encoded and written on this class's thread. */
    private record Taken(SavedModel model, AppliedPosition position, Instant at) {}

    /**
     * Start-up: restores the newest stored checkpoint into the model, which must be empty.
     *
     * @return the position in the log it reaches (replay the events after it), or empty when there is none to restore
     *         (or {@code lifeline.model.start-from-checkpoint} is off): replay the whole log
     */
    public Optional<AppliedPosition> restoreNewest() {
        if (!config.startFromCheckpoint()) {
            return Optional.empty();
        }
        long t0 = System.nanoTime();
        Optional<ModelCheckpointStore.Loaded> found;
        try {
            found = store.newest();
        } catch (StoreUnavailableException e) {
            LOG.warnf(
                    "Could not read the model checkpoints (%s); rebuilding the model from the whole log",
                    e.getMessage());
            return Optional.empty();
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ModelCheckpointStore.Loaded c = found.get();
        runtime.restore(c.model(), c.position()).join();
        LOG.infof(
                "Model restored from checkpoint %d taken %s (%d nodes, %d jobs, %d bytes, log %s) in %d ms",
                c.id(),
                c.takenAt(),
                c.model().fleet().nodes().size(),
                c.model().jobs().jobs().size(),
                c.bytes(),
                c.position(),
                (System.nanoTime() - t0) / 1_000_000);
        return Optional.of(c.position());
    }

    /**
     * Saves the model now (waiting for the model thread, not for the write) and then every
     * {@code lifeline.model.checkpoint-interval}; call once the start-up replay is done and before ingest opens, while
     * the model's position in the log is exact.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // takeAndWrite() catches and logs its own failures
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        try {
            Taken first = await(runtime.readNow(this::take));
            thread.execute(() -> write(first));
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warnf("No model checkpoint after start-up: %s", e.toString());
        }
        long every = Math.max(1_000, config.checkpointInterval().toMillis());
        thread.scheduleWithFixedDelay(this::takeAndWrite, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes a checkpoint now, ahead of queued batches. Completes with whether one was written (false when writing
     * failed).
     */
    public CompletableFuture<Boolean> checkpoint() {
        return CompletableFuture.supplyAsync(this::takeAndWrite, thread);
    }

    /** At shutdown, once ingest has stopped: the model as it ends, after what was queued for it. */
    void onStop(@Observes @Priority(ShutdownOrder.MODEL_CHECKPOINT) ShutdownEvent ev) {
        if (!started) {
            return;
        }
        try {
            CompletableFuture.supplyAsync(() -> write(await(runtime.read(this::take))), thread)
                    .get(SAVE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("No model checkpoint at shutdown: %s", e.toString());
        }
    }

    /** No periodic checkpoint once the last one is written: stops with the other {@link ShutdownOrder#BACKGROUND} work. */
    void stopTimer(
            @Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
    }

    private boolean takeAndWrite() {
        try {
            return write(await(runtime.readNow(this::take)));
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warnf(
                    "Model checkpoint failed, the next one is due in %s: %s",
                    config.checkpointInterval(), e.toString());
            return false;
        }
    }

    private static Taken await(CompletableFuture<Taken> f) {
        try {
            return f.get(SAVE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the model thread did not save the model", e);
        }
    }

    /** Runs on the model thread. */
    private Taken take(LiveModel m) {
        AppliedPosition position = runtime.appliedPosition();
        long t0 = System.nanoTime();
        SavedModel saved = m.save();
        lastHoldNanos = System.nanoTime() - t0;
        return new Taken(saved, position, clock.instant());
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // only this class's one thread writes it; readers see it volatile
    private boolean write(Taken t) {
        try {
            long t0 = System.nanoTime();
            byte[] body = store.encode(t.model());
            long id = store.write(body, t.position(), t.at(), config.checkpointsKept());
            written++;
            lastBytes = body.length;
            lastWritten = t.at();
            LOG.debugf(
                    "Model checkpoint %d written (%d bytes, log %s, model thread held %d ms, written in %d ms)",
                    id, body.length, t.position(), lastHoldNanos / 1_000_000, (System.nanoTime() - t0) / 1_000_000);
            return true;
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warnf(
                    "Model checkpoint could not be written, the next one is due in %s: %s",
                    config.checkpointInterval(), e.getMessage());
            return false;
        }
    }

    /** Checkpoints written since start. */
    public long written() {
        return written;
    }

    /** Checkpoints that failed to be taken or written. */
    public long failed() {
        return failed.get();
    }

    /** How long the latest save held the model thread, in nanoseconds. */
    public long lastHoldNanos() {
        return lastHoldNanos;
    }

    /** The size of the latest checkpoint written, in bytes (0 before the first). */
    public long lastBytes() {
        return lastBytes;
    }

    /** Seconds since the latest checkpoint written by this replica was taken; NaN before the first. */
    public double ageSeconds() {
        Instant last = lastWritten;
        return last == null ? Double.NaN : Math.max(0, clock.millis() - last.toEpochMilli()) / 1000.0;
    }
}
