package io.lifeline.ui.data;

import com.vaadin.flow.shared.Registration;
import io.lifeline.runtime.ModelRuntime;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The one reader of the model for all dashboards. While a view is subscribed it re-reads the model at most once a
 * second, and only when events were applied since (or every few seconds, for ages that grow with time), then hands
 * the new {@link DashboardSnapshot} to its subscribers. Otherwise it reads once a minute to keep the ETTR history.
 * Reads never run on a UI thread: views get the snapshot in a callback and push it with {@code UI.access}.
 */
@ApplicationScoped
public class DashboardData {

    private static final Logger LOG = Logger.getLogger(DashboardData.class);
    private static final long FAST_MILLIS = 1000;
    private static final long AGING_MILLIS = 5000;
    private static final long IDLE_MILLIS = 60_000;

    private final ModelRuntime model;
    private final Clock clock;
    private final EttrHistory history = new EttrHistory();
    private final Set<Consumer<DashboardSnapshot>> listeners = new CopyOnWriteArraySet<>();
    private final AtomicBoolean reading = new AtomicBoolean();
    private final ScheduledExecutorService timer;
    private volatile DashboardSnapshot current = DashboardSnapshot.EMPTY;
    private volatile long lastApplied = -1;
    private volatile long lastReadAt;

    DashboardData(ModelRuntime model, Clock clock) {
        this.model = model;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lifeline-dashboard");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, FAST_MILLIS, FAST_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Created at start, so the ETTR history is kept from the beginning, not from the first page opened. */
    void onStart(@Observes StartupEvent e) {
        LOG.debug("Dashboard data reader started");
    }

    /** The latest snapshot (the empty one before the first read). */
    public DashboardSnapshot current() {
        return current;
    }

    /** The fleet ETTR history. */
    public EttrHistory ettrHistory() {
        return history;
    }

    /**
     * Calls {@code listener} (on the dashboard thread) with every new snapshot until the registration is removed.
     * A first read is started at once when none was made yet.
     */
    public Registration subscribe(Consumer<DashboardSnapshot> listener) {
        listeners.add(listener);
        if (current.isEmpty()) {
            refresh();
        }
        return () -> listeners.remove(listener);
    }

    /** Subscribed views, for tests and metrics. */
    public int subscribers() {
        return listeners.size();
    }

    /** Reads the model now, whatever changed, and tells the subscribers. */
    public CompletableFuture<DashboardSnapshot> refresh() {
        long applied = model.appliedCount();
        long version = current.version() + 1;
        // Only the copying runs on the model's thread; sorting and grouping run elsewhere (a plain thenApply would
        // run them on the model's thread, which completes the read).
        return model.read(m -> SnapshotReader.capture(m, clock.instant())).thenApplyAsync(c -> {
            DashboardSnapshot s = SnapshotReader.assemble(c, version);
            publish(s, applied);
            return s;
        });
    }

    private void tick() {
        long now = clock.millis();
        long applied = model.appliedCount();
        boolean watched = !listeners.isEmpty();
        boolean due = watched ? applied != lastApplied || now - lastReadAt >= AGING_MILLIS : now - lastReadAt >= IDLE_MILLIS;
        if (!due || !reading.compareAndSet(false, true)) {
            return;
        }
        try {
            refresh().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debugf(e, "Dashboard read failed");
        } finally {
            reading.set(false);
        }
    }

    private synchronized void publish(DashboardSnapshot s, long applied) {
        if (s.version() <= current.version()) {
            s = withVersion(s, current.version() + 1);
        }
        current = s;
        lastApplied = applied;
        lastReadAt = clock.millis();
        history.record(s.builtAt(), s.fleetGoodput());
        for (Consumer<DashboardSnapshot> l : listeners) {
            try {
                l.accept(s);
            } catch (RuntimeException e) {
                LOG.debugf(e, "Dashboard listener failed");
            }
        }
    }

    private static DashboardSnapshot withVersion(DashboardSnapshot s, long v) {
        return new DashboardSnapshot(s.builtAt(), s.nodes(), s.gpusByNode(), s.jobsByNode(), s.jobs(), s.openIncidents(),
                s.causes24h(), s.causes7d(), s.fleetGoodput(), s.notices(), v);
    }

    /** How long a subscriber may wait between two snapshots at most, while events flow. */
    public static Duration period() {
        return Duration.ofMillis(FAST_MILLIS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
