package io.lifeline.objective;

import io.lifeline.config.ObjectivesConfig;
import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.JobObjectives;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.domain.objective.Objective;
import io.lifeline.domain.objective.ObjectiveBook;
import io.lifeline.domain.objective.ObjectiveScope;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.objective.store.ObjectiveStore;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshots;
import io.lifeline.runtime.SpotPricing;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.jboss.logging.Logger;

/**
 * The goodput objectives of this replica: set by configuration until the API sets them, sampled from the latest model
 * snapshot every {@code lifeline.objectives.sample-interval}. Readers (API, dashboard, metrics, alert rules, policies)
 * get statuses computed from the book; the book is touched under this object's lock only.
 */
@ApplicationScoped
public class ObjectiveService implements JobObjectives {

    private static final Logger LOG = Logger.getLogger(ObjectiveService.class);

    /** Where the objectives in force came from. */
    public enum Source {
        CONFIGURATION,
        API,
        /** A set given by whoever wires the application while nothing is configured or stored (the demo's). */
        DEFAULT
    }

    private final ObjectivesConfig config;
    private final ObjectiveStore store;
    private final ModelSnapshots snapshots;
    private final SpotPricing pricing;
    private final Clock clock;
    private final ObjectiveBook book = new ObjectiveBook();
    private List<ObjectiveStore.Stored> stored = List.of();
    private Source source = Source.CONFIGURATION;
    /** Used while no objective is configured or stored; never stored itself. */
    private List<ObjectiveStore.Stored> defaults = List.of();

    ObjectiveService(
            ObjectivesConfig config, ObjectiveStore store, ModelSnapshots snapshots, SpotPricing pricing, Clock clock) {
        this.config = config;
        this.store = store;
        this.snapshots = snapshots;
        this.pricing = pricing;
        this.clock = clock;
        book.thresholds(new BurnThresholds(config.fastBurn(), config.slowBurn()));
    }

    void onStart(@Observes StartupEvent e) {
        load();
        try {
            int restored = restoreSeries();
            if (restored > 0) {
                LOG.infof("%d goodput objective(s) took their windows back from the last save", restored);
            }
        } catch (RuntimeException ex) {
            LOG.warnf("The objectives' saved windows could not be read; they start again: %s", ex.toString());
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        saveSeries();
    }

    private synchronized int restoreSeries() {
        return store.loadSeries().map(book::restore).orElse(0);
    }

    /** Saves the series, so that a restart keeps the windows (every few minutes, and at shutdown). */
    @Scheduled(
            every = "${lifeline.objectives.save-interval:5m}",
            delayed = "${lifeline.objectives.save-interval:5m}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void saveSeries() {
        io.lifeline.domain.objective.SavedBook saved;
        synchronized (this) {
            if (book.objectives().isEmpty()) {
                return;
            }
            saved = book.save();
        }
        try {
            store.saveSeries(saved, clock.instant());
        } catch (RuntimeException ex) {
            LOG.warnf("The objectives' windows were not saved this time: %s", ex.toString());
        }
    }

    /** Takes the stored set if the API ever set one, else the configuration's. */
    synchronized void load() {
        Optional<List<ObjectiveStore.Stored>> fromApi = store.load();
        List<ObjectiveStore.Stored> set = fromApi.orElseGet(this::fromConfig);
        boolean byDefault = fromApi.isEmpty() && set.isEmpty() && !defaults.isEmpty();
        if (byDefault) {
            set = defaults;
        }
        book.configure(toDomain(set));
        stored = List.copyOf(set);
        source = fromApi.isPresent() ? Source.API : byDefault ? Source.DEFAULT : Source.CONFIGURATION;
        LOG.infof("%d goodput objective(s) from %s", set.size(), source.name().toLowerCase(java.util.Locale.ROOT));
    }

    private List<ObjectiveStore.Stored> fromConfig() {
        List<ObjectiveStore.Stored> out = new ArrayList<>();
        new java.util.TreeMap<>(config.objective())
                .forEach((name, o) -> out.add(new ObjectiveStore.Stored(
                        name,
                        o.scope(),
                        o.ettrTarget(),
                        Objective.formatWindow(o.window()),
                        o.lostGpuHoursLimit().isPresent()
                                ? o.lostGpuHoursLimit().getAsDouble()
                                : null,
                        o.moneyLimit().isPresent() ? o.moneyLimit().getAsDouble() : null)));
        return out;
    }

    /**
     * Puts {@code set} in force while no objective is configured and none was ever set through the API, without
     * storing it: the API, metrics and alert rules see it as any other set, a {@code PUT} replaces it, and a restart
     * starts from the configuration again. Then feeds the book {@code history} (instants in order, each with every
     * job's cumulative sample), so that the windows hold more than the time since the start.
     *
     * @return whether the set was put in force
     * @throws IllegalArgumentException when the set is invalid
     */
    public synchronized boolean useByDefault(
            List<ObjectiveStore.Stored> set, java.util.SortedMap<Instant, List<JobSample>> history) {
        List<Objective> objectives = toDomain(set);
        ObjectiveBook.check(objectives);
        if (!config.objective().isEmpty()
                || source == Source.API
                || store.load().isPresent()) {
            return false;
        }
        defaults = List.copyOf(set);
        book.configure(objectives);
        stored = defaults;
        source = Source.DEFAULT;
        replay(history);
        LOG.infof("%d goodput objective(s) by default (not stored): nothing is configured", set.size());
        return true;
    }

    @Scheduled(
            every = "${lifeline.objectives.sample-interval:1m}",
            delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @SuppressWarnings("ReferenceEquality") // EMPTY is the sentinel for no snapshot yet
    void scheduled() {
        ModelSnapshot s = snapshots.latest();
        if (s != ModelSnapshot.EMPTY) {
            sample(clock.instant(), s);
        }
    }

    /** Samples every job of {@code snapshot} as of {@code now}. */
    synchronized void sample(Instant now, ModelSnapshot snapshot) {
        book.sample(now, ObjectiveSamples.of(snapshot, pricing.prices()));
    }

    /** Feeds the book samples directly (a replayed history, or a test on a moved clock). */
    public synchronized void sample(Instant now, List<JobSample> jobs) {
        book.sample(now, jobs);
    }

    /**
     * Feeds a replayed history of samples, oldest first, as one piece: no sample of the model comes between them
     * (which would forget the replayed jobs and count their next sample as a first one).
     */
    public synchronized void replay(
            java.util.SortedMap<Instant, List<io.lifeline.domain.objective.JobSample>> history) {
        history.forEach(book::sample);
    }

    /** Every objective's status now. */
    public synchronized List<ObjectiveStatus> statuses() {
        return book.statuses(clock.instant());
    }

    /** One objective's status now, or empty. */
    public synchronized Optional<ObjectiveStatus> status(String name) {
        return book.status(name, clock.instant());
    }

    /** The objectives whose scope held {@code job} at the last sample. */
    public synchronized List<ObjectiveStatus> forJob(String job) {
        return book.of(job, clock.instant());
    }

    /** The objectives in force, as the API speaks them. */
    public synchronized List<ObjectiveStore.Stored> objectives() {
        return stored;
    }

    public synchronized Source source() {
        return source;
    }

    public BurnThresholds thresholds() {
        return book.thresholds();
    }

    /**
     * Replaces the whole set, stores and audits it.
     *
     * @throws IllegalArgumentException with every problem found, before anything changes
     */
    public synchronized List<ObjectiveStatus> replace(List<ObjectiveStore.Stored> set, String actor) {
        List<Objective> objectives = toDomain(set);
        ObjectiveBook.check(objectives);
        store.save(stored, set, actor, clock.instant());
        book.configure(objectives);
        stored = List.copyOf(set);
        source = Source.API;
        return book.statuses(clock.instant());
    }

    @Override
    public OptionalDouble ettrTarget(String job) {
        return book.ettrTarget(job);
    }

    @Override
    public boolean burning(String job) {
        return book.burning(job);
    }

    /** Parses a stored or sent set, every problem named by its index and field. */
    static List<Objective> toDomain(List<ObjectiveStore.Stored> set) {
        List<Objective> out = new ArrayList<>(set.size());
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < set.size(); i++) {
            ObjectiveStore.Stored s = set.get(i);
            String at = "objectives[" + i + "]" + (s.name() == null ? "" : " (" + s.name() + ")") + ".";
            ObjectiveScope scope = null;
            java.time.Duration window = null;
            try {
                scope = ObjectiveScope.parse(s.scope());
            } catch (IllegalArgumentException e) {
                problems.add(at + "scope: " + e.getMessage());
            }
            try {
                window = Objective.parseWindow(s.window() == null ? "7d" : s.window());
            } catch (IllegalArgumentException e) {
                problems.add(at + "window: " + e.getMessage());
            }
            if (scope == null || window == null) {
                continue;
            }
            List<String> p =
                    Objective.problems(s.name(), scope, s.ettrTarget(), window, s.lostGpuHoursLimit(), s.moneyLimit());
            if (!p.isEmpty()) {
                p.forEach(x -> problems.add(at + x));
                continue;
            }
            out.add(new Objective(s.name(), scope, s.ettrTarget(), window, s.lostGpuHoursLimit(), s.moneyLimit()));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return out;
    }
}
