package io.lifeline.ui.data;

import com.vaadin.flow.shared.Registration;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshots;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The dashboards' shared data, made from the model's published snapshots ({@link ModelSnapshots}): it never touches
 * the model thread. While a view is subscribed it makes a new {@link DashboardSnapshot} from each model snapshot in
 * which events were applied (or every few seconds, for ages that grow with time) and hands it to its subscribers;
 * otherwise it makes one a minute to keep the ETTR history. Nothing runs on a UI thread: views get the snapshot in a
 * callback and push it with {@code UI.access}.
 */
@ApplicationScoped
public class DashboardData {

    private static final Logger LOG = Logger.getLogger(DashboardData.class);
    private static final long FAST_MILLIS = 1000;
    private static final long AGING_MILLIS = 5000;
    private static final long IDLE_MILLIS = 60_000;

    private final ModelSnapshots snapshots;
    private final Clock clock;
    private final EttrHistory history = new EttrHistory();
    private final Set<Consumer<DashboardSnapshot>> listeners = new CopyOnWriteArraySet<>();
    private volatile DashboardSnapshot current = DashboardSnapshot.EMPTY;
    private volatile long lastApplied = -1;
    private volatile long lastReadAt;

    DashboardData(ModelSnapshots snapshots, Clock clock) {
        this.snapshots = snapshots;
        this.clock = clock;
        snapshots.subscribe(this::onModelSnapshot);
    }

    /** Created at start, so the ETTR history is kept from the beginning, not from the first page opened. */
    void onStart(@Observes StartupEvent e) {
        LOG.debug("Dashboard data started");
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
     * Calls {@code listener} (on the model snapshots' thread) with every new snapshot until the registration is
     * removed. The latest model snapshot is made into one at once when none was made yet.
     */
    public Registration subscribe(Consumer<DashboardSnapshot> listener) {
        listeners.add(listener);
        if (current.isEmpty()) {
            ModelSnapshot latest = snapshots.latest();
            if (latest != ModelSnapshot.EMPTY) {
                CompletableFuture.runAsync(() -> make(latest));
            } else {
                refresh();
            }
        }
        return () -> listeners.remove(listener);
    }

    /** Subscribed views, for tests and metrics. */
    public int subscribers() {
        return listeners.size();
    }

    /** Asks the model for a snapshot now, after everything queued for it, and tells the subscribers. */
    public CompletableFuture<DashboardSnapshot> refresh() {
        return snapshots.fresh().thenApply(this::make);
    }

    private void onModelSnapshot(ModelSnapshot m) {
        long now = clock.millis();
        boolean watched = !listeners.isEmpty();
        boolean due = watched ? m.appliedEvents() != lastApplied || now - lastReadAt >= AGING_MILLIS
                : now - lastReadAt >= IDLE_MILLIS;
        if (due) {
            make(m);
        }
    }

    private DashboardSnapshot make(ModelSnapshot m) {
        DashboardSnapshot s = SnapshotReader.assemble(SnapshotReader.capture(m), current.version() + 1);
        publish(s, m.appliedEvents());
        return current;
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
}
