package io.lifeline.policy;

import io.lifeline.action.ActionExecutor;
import io.lifeline.action.DefaultActionService;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.StepResult;
import io.lifeline.config.ColocationConfig;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.page.Page;
import io.lifeline.domain.policy.ColocationPolicy;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.domain.policy.colocation.ColocationRules;
import io.lifeline.domain.policy.colocation.DemandState;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import io.lifeline.domain.policy.colocation.LendingWindow;
import io.lifeline.domain.policy.colocation.WindowSchedule;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The co-location policy's edge: loads its windows and triggers from configuration (failing the start on a mistake,
 * every one named), reads the demand triggers' sources every {@code lifeline.colocation.sample-interval} on the
 * leader and hands the engine each new state, and answers what lending costs from the rescales the policy carried
 * out (their {@code scale workers} steps record it). The decisions themselves are the engine's periodic pass.
 */
@ApplicationScoped
public class ColocationService {

    private static final Logger LOG = Logger.getLogger(ColocationService.class);
    /** The ledger covers this far back, at most this many rescales. */
    static final Duration LEDGER_SPAN = Duration.ofDays(30);

    static final int LEDGER_LIMIT = 200;
    /** A ledger read serves the dashboard's refreshes this long. */
    private static final Duration LEDGER_CACHE = Duration.ofSeconds(5);

    private final ColocationConfig config;
    private final PolicyEngine engine;
    private final DefaultActionService actions;
    private final ModelRuntime runtime;
    private final ActionExecutor executor;
    private final Clock clock;
    private final Instance<DemandReader> readers;
    private ScheduledExecutorService timer;
    private volatile Ledger cached;

    /** Episodes and pool totals, as read at {@code at}. */
    private record Ledger(Instant at, List<ColocationLedger.Episode> episodes) {}

    /** A window as shown: its schedule in words, whether it is open now and when that changes. */
    public record WindowView(
            String name, String pool, String schedule, boolean open, Instant openedAt, Instant nextChange) {}

    /** A demand trigger as shown, with its state. */
    public record TriggerView(
            String name, String pool, String source, double threshold, long holdSeconds, DemandState state) {}

    /** A pool with rules: whether it lends now and why, and what lending cost it. */
    public record PoolView(
            String pool,
            boolean lending,
            List<String> windowsOpen,
            List<String> triggersActive,
            ColocationLedger.PoolCost cost) {}

    /** Everything the API and the dashboard show. */
    public record Status(
            Instant at,
            List<WindowView> windows,
            List<TriggerView> triggers,
            List<PoolView> pools,
            List<ColocationPolicy.JobNote> jobs,
            List<ColocationLedger.Episode> episodes) {}

    ColocationService(
            ColocationConfig config,
            DefaultPolicyService policies,
            DefaultActionService actions,
            ModelRuntime runtime,
            ActionExecutor executor,
            Clock clock,
            @Any Instance<DemandReader> readers) {
        this.config = config;
        this.engine = policies.engine();
        this.actions = actions;
        this.runtime = runtime;
        this.executor = executor;
        this.clock = clock;
        this.readers = readers;
    }

    void onStart(@Observes StartupEvent e) {
        engine.colocation(new ColocationPolicy(rules(config), Map.of()));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // sample() records a failed read in the demand state
    void onOpened(@Observes IngestOpened opened) {
        if (engine.colocation().rules().triggers().isEmpty()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-colocation-demand"));
        long period = config.sampleInterval().toMillis();
        timer.scheduleWithFixedDelay(
                () -> {
                    if (executor.isLeader()) {
                        sample();
                    }
                },
                0,
                period,
                TimeUnit.MILLISECONDS);
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** The configured rules, checked. */
    static ColocationRules rules(ColocationConfig c) {
        Map<String, ColocationRules.RawWindow> windows = new LinkedHashMap<>();
        c.windows()
                .forEach((name, w) -> windows.put(
                        name,
                        new ColocationRules.RawWindow(
                                w.pool().orElse(null),
                                w.days().orElse(null),
                                w.from().orElse(null),
                                w.to().orElse(null),
                                w.zone().orElse(null),
                                w.every().orElse(null),
                                w.openFor().orElse(null),
                                w.starting().orElse(null))));
        Map<String, ColocationRules.RawDemand> demand = new LinkedHashMap<>();
        c.demand()
                .forEach((name, d) -> demand.put(
                        name,
                        new ColocationRules.RawDemand(
                                d.pool().orElse(null),
                                d.pendingPods().orElse(null),
                                d.prometheusQuery().orElse(null),
                                d.threshold().orElse(null),
                                d.hold().orElse(null))));
        return ColocationRules.parse(windows, demand, "lifeline.colocation");
    }

    /** Adds (or replaces) a window at run time, as the demo fleet does for its day/night cycle. */
    public synchronized void addWindow(LendingWindow w) {
        engine.colocation(
                engine.colocation().withRules(engine.colocation().rules().with(w)));
        LOG.infof("Co-location window %s on pool %s: %s", w.name(), w.pool(), describe(w.schedule()));
    }

    /** Reads every demand trigger once and hands the engine the new states. */
    public synchronized void sample() {
        ColocationPolicy p = engine.colocation();
        for (DemandTrigger t : p.rules().triggers()) {
            DemandState before = p.demand().get(t.name());
            Instant now = clock.instant();
            DemandState after;
            try {
                after = before.sampled(read(t.source()), now, t.threshold(), t.hold());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                after = before.failed(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), now);
            }
            if (after.active() != before.active()) {
                LOG.infof(
                        "Co-location demand %s on pool %s %s (value %s, threshold %s)",
                        t.name(),
                        t.pool(),
                        after.active()
                                ? "is above its threshold: the pool lends"
                                : "stayed low for its hold: the" + " pool stops lending",
                        after.value(),
                        t.threshold());
            }
            p = p.withDemand(t.name(), after);
        }
        engine.colocation(p);
    }

    private double read(DemandTrigger.Source source) throws Exception {
        for (DemandReader r : readers) {
            if (r.serves(source)) {
                return r.read(source);
            }
        }
        throw new IllegalStateException("nothing reads " + source.describe() + " (is its connection configured?)");
    }

    /**
     * What the API and the dashboard show, limited to {@code scope}'s jobs and to the pools {@code poolShown}
     * accepts.
     */
    public Status status(Scope scope, Predicate<String> poolShown) throws Exception {
        Instant now = clock.instant();
        ColocationPolicy p = engine.colocation();
        List<WindowView> windows = new ArrayList<>();
        for (LendingWindow w : p.rules().windows()) {
            if (poolShown.test(w.pool())) {
                windows.add(new WindowView(
                        w.name(),
                        w.pool(),
                        describe(w.schedule()),
                        w.schedule().isOpen(now),
                        w.schedule().openedAt(now).orElse(null),
                        w.schedule().nextChange(now)));
            }
        }
        List<TriggerView> triggers = new ArrayList<>();
        Map<String, DemandState> states = p.demand();
        for (DemandTrigger t : p.rules().triggers()) {
            if (poolShown.test(t.pool())) {
                triggers.add(new TriggerView(
                        t.name(),
                        t.pool(),
                        t.source().describe(),
                        t.threshold(),
                        t.hold().toSeconds(),
                        states.get(t.name())));
            }
        }
        List<ColocationLedger.Episode> episodes =
                episodes(now).stream().filter(e -> scope.allowsJob(e.job())).toList();
        Map<String, ColocationLedger.PoolCost> costs = new LinkedHashMap<>();
        ColocationLedger.pools(episodes).forEach(c -> costs.put(c.pool(), c));
        List<PoolView> pools = new ArrayList<>();
        for (String pool : p.pools()) {
            if (poolShown.test(pool)) {
                ColocationPolicy.Lending l = p.lending(pool, now);
                pools.add(new PoolView(
                        pool,
                        l.lends(),
                        l.windows(),
                        l.triggers(),
                        costs.getOrDefault(pool, new ColocationLedger.PoolCost(pool, 0, 0, 0, 0, 0))));
            }
        }
        List<ColocationPolicy.JobNote> notes = runtime
                .read(m -> p.pass(engine.settings(), m.jobs(), m.fleet(), now).notes())
                .get(30, TimeUnit.SECONDS)
                .stream()
                .filter(n -> scope.allowsJob(n.job()))
                .toList();
        return new Status(now, windows, triggers, pools, notes, episodes);
    }

    /** One job's lendings, oldest first. */
    public List<ColocationLedger.Episode> episodesOf(String job) throws Exception {
        return episodes(clock.instant()).stream()
                .filter(e -> e.job().equals(job))
                .toList();
    }

    private List<ColocationLedger.Episode> episodes(Instant now) throws Exception {
        Ledger l = cached;
        if (l != null && !now.isBefore(l.at()) && Duration.between(l.at(), now).compareTo(LEDGER_CACHE) < 0) {
            return l.episodes();
        }
        List<ColocationLedger.Episode> episodes = ColocationLedger.episodes(rescales(now), now);
        cached = new Ledger(now, episodes);
        return episodes;
    }

    /** The rescales the policy carried out, from their {@code scale workers} steps. */
    List<ColocationLedger.Rescale> rescales(Instant now) {
        Page<ActionView> page = actions.list(new ActionQuery(
                ActionKind.RESCALE,
                ActionState.SUCCEEDED,
                null,
                PolicyName.COLOCATION.requester(),
                now.minus(LEDGER_SPAN),
                null,
                LEDGER_LIMIT,
                null));
        List<ColocationLedger.Rescale> out = new ArrayList<>();
        for (ActionView item : page.items()) {
            actions.find(item.id()).ifPresent(a -> out.addAll(rescalesOf(a)));
        }
        return out;
    }

    /** What a rescale action carried out, from its {@code scale workers} step (nothing if it did not scale). */
    public static List<ColocationLedger.Rescale> rescalesOf(ActionView a) {
        List<ColocationLedger.Rescale> out = new ArrayList<>();
        for (ActionStepView s : a.steps()) {
            if (s.name().equals("scale workers")
                    && s.result() instanceof StepResult.Rescaled r
                    && s.endedAt() != null) {
                out.add(new ColocationLedger.Rescale(
                        a.target(),
                        r.pool(),
                        s.endedAt(),
                        r.fromNodes(),
                        r.toNodes(),
                        r.gpusPerNode(),
                        r.reworkGpuHours(),
                        r.checkpointed(),
                        a.id()));
            }
        }
        return out;
    }

    /** A schedule in words, for people. */
    public static String describe(WindowSchedule s) {
        if (s instanceof WindowSchedule.Weekly w) {
            StringBuilder days = new StringBuilder();
            w.days().stream()
                    .sorted()
                    .forEach(d -> days.append(days.length() == 0 ? "" : ",")
                            .append(d.name().substring(0, 3).toLowerCase(java.util.Locale.ROOT)));
            return days + " " + w.from() + "-" + w.to() + " " + w.zone().getId();
        }
        WindowSchedule.Cycle c = (WindowSchedule.Cycle) s;
        return "open " + c.openFor().toMinutes() + " min of every " + c.every().toMinutes() + " min from " + c.anchor();
    }
}
