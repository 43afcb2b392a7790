package io.lifeline.runtime;

import io.lifeline.config.ModelConfig;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The one reader of the whole model. Every {@code lifeline.model.snapshot-interval} the model thread takes one
 * immutable {@link ModelSnapshot} (ahead of queued ingest batches, so it never waits behind them), reusing the views
 * of nodes that did not change; dashboards, metrics and alert rules read the latest one and never touch the model
 * thread themselves. {@link #fresh} asks for one now, for a reader that must see what was just ingested.
 *
 * <p>Snapshots are handed to listeners, and futures completed, on this class's own thread, never on the model's.
 */
@ApplicationScoped
public class ModelSnapshots {

    private static final Logger LOG = Logger.getLogger(ModelSnapshots.class);

    private final ModelRuntime runtime;
    private final Clock clock;
    private final long intervalMillis;
    private final List<Consumer<ModelSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService thread;
    private volatile ModelSnapshot latest = ModelSnapshot.EMPTY;
    /** Touched on the model thread only: the snapshot the next one reuses views from. */
    private ModelSnapshot previous = ModelSnapshot.EMPTY;

    private volatile long lastHoldNanos;
    private volatile long longestHoldNanos;
    private volatile long taken;

    ModelSnapshots(ModelRuntime runtime, Clock clock, ModelConfig config) {
        this.runtime = runtime;
        this.clock = clock;
        this.intervalMillis = Math.max(50, config.snapshotInterval().toMillis());
        this.thread = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-snapshots"));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // tick() catches and logs its own failures
    void onStart(@Observes StartupEvent e) {
        thread.scheduleWithFixedDelay(this::tick, 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
    }

    /** The newest snapshot ({@link ModelSnapshot#EMPTY} before the first). Never waits. */
    public ModelSnapshot latest() {
        return latest;
    }

    /**
     * A snapshot taken after everything queued for the model before this call was applied (it waits its turn
     * behind queued ingest batches). Completed on this class's thread.
     */
    public CompletableFuture<ModelSnapshot> fresh() {
        return runtime.read(this::take).thenApplyAsync(this::publish, thread);
    }

    /** Calls {@code listener} on this class's thread with every new snapshot. */
    public void subscribe(Consumer<ModelSnapshot> listener) {
        listeners.add(listener);
    }

    /** How long the latest snapshot held the model thread, in nanoseconds. */
    public long lastHoldNanos() {
        return lastHoldNanos;
    }

    /** The longest any snapshot held the model thread since start, in nanoseconds. */
    public long longestHoldNanos() {
        return longestHoldNanos;
    }

    /** Snapshots taken since start. */
    public long taken() {
        return taken;
    }

    private void tick() {
        try {
            publish(runtime.readNow(this::take).get(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debugf("Model snapshot failed: %s", e.toString());
        }
    }

    /** Runs on the model thread. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // only the model thread writes it
    private ModelSnapshot take(LiveModel m) {
        long t0 = System.nanoTime();
        ModelSnapshot s = ModelSnapshot.take(m, previous, clock.instant(), runtime.appliedCount());
        previous = s;
        long held = System.nanoTime() - t0;
        lastHoldNanos = held;
        if (held > longestHoldNanos) {
            longestHoldNanos = held;
        }
        taken++;
        return s;
    }

    private synchronized ModelSnapshot publish(ModelSnapshot s) {
        if (s.sequence() <= latest.sequence()) {
            return s; // a newer one was published meanwhile (a fresh read overtook a periodic one, or the reverse)
        }
        latest = s;
        for (Consumer<ModelSnapshot> l : listeners) {
            try {
                l.accept(s);
            } catch (RuntimeException ex) {
                LOG.debugf(ex, "Model snapshot listener failed");
            }
        }
        return s;
    }
}
