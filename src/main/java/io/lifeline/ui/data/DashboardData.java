package io.lifeline.ui.data;

import com.vaadin.flow.shared.Registration;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshots;
import io.lifeline.security.Scope;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The dashboards' shared data, made from the model's published snapshots ({@link ModelSnapshots}): it never touches
 * the model thread. While a view is subscribed it makes a new {@link DashboardSnapshot} from each model snapshot in
 * which events were applied (or every few seconds, for ages that grow with time) and hands it to its subscribers;
 * otherwise it makes one a minute to keep the ETTR history. Nothing runs on a UI thread: views get the snapshot in a
 * callback and push it with {@code UI.access}.
 *
 * <p>Every read is made for a {@link Scope}, the signed-in caller's: a fleet-wide caller gets the whole snapshot, a
 * caller limited to namespaces one cut down to what {@link Scope} lets it see (its jobs, and the nodes they run on),
 * made once per snapshot and scope however many of its pages are open. Each scope seen keeps an ETTR history of
 * its own jobs, so its overview never shows the fleet's.
 */
@ApplicationScoped
public class DashboardData {

    private static final Logger LOG = Logger.getLogger(DashboardData.class);
    private static final long FAST_MILLIS = 1000;
    private static final long AGING_MILLIS = 5000;
    private static final long IDLE_MILLIS = 60_000;
    /** Scopes whose ETTR history is kept; the one not read the longest is dropped beyond that. */
    private static final int SCOPED_HISTORIES = 64;

    private static final Duration SCOPED_HISTORY_STEP = Duration.ofMinutes(5);

    /** The latest snapshot, what it was made from, and the scoped cuts of it made so far. */
    private record Published(
            DashboardSnapshot full, SnapshotReader.Captured captured, ConcurrentMap<Scope, DashboardSnapshot> scoped) {

        DashboardSnapshot of(Scope scope) {
            if (scope.isEverything() || captured == null) {
                return scope.isEverything() ? full : DashboardSnapshot.EMPTY;
            }
            return scoped.computeIfAbsent(scope, s -> SnapshotReader.assemble(captured.scopedTo(s), full.version()));
        }
    }

    private final ModelSnapshots snapshots;
    private final Clock clock;
    private final EttrHistory history = new EttrHistory();
    private final Map<Consumer<DashboardSnapshot>, Scope> listeners = new ConcurrentHashMap<>();
    private final Map<Scope, EttrHistory> scopedHistories = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Scope, EttrHistory> eldest) {
            return size() > SCOPED_HISTORIES;
        }
    };
    private volatile Published published = new Published(DashboardSnapshot.EMPTY, null, new ConcurrentHashMap<>());
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

    /** The latest whole snapshot (the empty one before the first read), as a fleet-wide caller sees it. */
    public DashboardSnapshot current() {
        return published.full();
    }

    /** The latest snapshot as {@code scope} may see it. */
    public DashboardSnapshot current(Scope scope) {
        return published.of(scope);
    }

    /** The fleet ETTR history. */
    public EttrHistory ettrHistory() {
        return history;
    }

    /**
     * The ETTR history of {@code scope}'s jobs: the fleet's for a fleet-wide scope; for one limited to namespaces,
     * kept from the first time it was asked for (every five minutes, while fewer than 64 such scopes are in use).
     */
    public EttrHistory ettrHistory(Scope scope) {
        if (scope.isEverything()) {
            return history;
        }
        synchronized (scopedHistories) {
            EttrHistory h = scopedHistories.get(scope);
            if (h == null) {
                h = new EttrHistory(SCOPED_HISTORY_STEP);
                scopedHistories.put(scope, h);
                Published p = published;
                if (p.captured() != null) {
                    h.record(p.full().builtAt(), p.captured().goodputOf(scope));
                }
            }
            return h;
        }
    }

    /**
     * Calls {@code listener} (on the model snapshots' thread) with every new snapshot, as {@code scope} may see it,
     * until the registration is removed. The latest model snapshot is made into one at once when none was made yet.
     */
    // EMPTY is the sentinel for no snapshot yet; nothing waits for the first snapshot, whose failure is logged here.
    @SuppressWarnings({"ReferenceEquality", "FutureReturnValueIgnored"})
    public Registration subscribe(Scope scope, Consumer<DashboardSnapshot> listener) {
        listeners.put(listener, scope);
        if (published.full().isEmpty()) {
            ModelSnapshot latest = snapshots.latest();
            CompletableFuture<?> first =
                    latest != ModelSnapshot.EMPTY ? CompletableFuture.runAsync(() -> make(latest)) : refresh();
            first.whenComplete((s, e) -> {
                if (e != null) {
                    LOG.debugf(e, "First dashboard snapshot failed");
                }
            });
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
        boolean due = watched
                ? m.appliedEvents() != lastApplied || now - lastReadAt >= AGING_MILLIS
                : now - lastReadAt >= IDLE_MILLIS;
        if (due) {
            make(m);
        }
    }

    private DashboardSnapshot make(ModelSnapshot m) {
        SnapshotReader.Captured c = SnapshotReader.capture(m);
        DashboardSnapshot s = SnapshotReader.assemble(c, published.full().version() + 1);
        publish(s, c, m.appliedEvents());
        return published.full();
    }

    private synchronized void publish(DashboardSnapshot s, SnapshotReader.Captured c, long applied) {
        DashboardSnapshot before = published.full();
        if (s.version() <= before.version()) {
            s = withVersion(s, before.version() + 1);
        }
        Published p = new Published(s, c, new ConcurrentHashMap<>());
        published = p;
        lastApplied = applied;
        lastReadAt = clock.millis();
        history.record(s.builtAt(), s.fleetGoodput());
        synchronized (scopedHistories) {
            for (Map.Entry<Scope, EttrHistory> h : scopedHistories.entrySet()) {
                h.getValue().record(s.builtAt(), c.goodputOf(h.getKey()));
            }
        }
        listeners.forEach((l, scope) -> {
            try {
                l.accept(p.of(scope));
            } catch (RuntimeException e) {
                LOG.debugf(e, "Dashboard listener failed");
            }
        });
    }

    private static DashboardSnapshot withVersion(DashboardSnapshot s, long v) {
        return new DashboardSnapshot(
                s.builtAt(),
                s.nodes(),
                s.gpusByNode(),
                s.jobsByNode(),
                s.jobs(),
                s.openIncidents(),
                s.causes24h(),
                s.causes7d(),
                s.fleetGoodput(),
                s.notices(),
                v);
    }

    /** How long a subscriber may wait between two snapshots at most, while events flow. */
    public static Duration period() {
        return Duration.ofMillis(FAST_MILLIS);
    }
}
