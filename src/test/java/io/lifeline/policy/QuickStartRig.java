package io.lifeline.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.action.ActionExecutor;
import io.lifeline.action.ActionsForTests;
import io.lifeline.action.DefaultActionService;
import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.ActionsConfig;
import io.lifeline.config.PoliciesConfig;
import io.lifeline.demo.runtime.DemoForTests;
import io.lifeline.demo.runtime.DemoRunner;
import io.lifeline.demo.store.DemoJournalStore;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.Leaderships;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.metrics.ActionMetricsForTests;
import io.lifeline.policy.store.BrakeStore;
import io.lifeline.policy.store.PolicyStore;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.lifeline.testing.MigratedPostgres;
import io.lifeline.testing.MovableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The quick start on a clock the test moves: the demo fleet (its runner, simulated cluster and trainers) feeding a
 * model host, the policy runner and the action executor with its PostgreSQL store, wired as the application wires
 * them. Simulated time moves only when {@link #advance} says; the executor's re-checks run in real time meanwhile
 * (every few milliseconds), so waits see the simulation at about every step.
 */
final class QuickStartRig implements AutoCloseable {

    static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

    final MovableClock clock;
    final Instant start;
    final MigratedPostgres db;
    private final boolean ownsDb;
    /** What the demo handed to ingest, but GPU samples (only counted). */
    final List<Event> delivered = new java.util.concurrent.CopyOnWriteArrayList<>();

    final java.util.concurrent.atomic.AtomicLong samples = new java.util.concurrent.atomic.AtomicLong();
    final ModelRuntime runtime;
    final DemoRunner demo;
    final ActionStore store;
    final ActionExecutor executor;
    final DefaultActionService actions;
    final DefaultPolicyService policies;
    final PolicyRunner policyRunner;
    /** The automation brake, with its defaults: the quick start's ordinary day must never engage it. */
    final AutomationBrakeService brake;

    private final Leadership leadership;

    private static final ActionsConfig ACTIONS = new ActionsConfig() {
        @Override
        public boolean executorEnabled() {
            return true;
        }

        @Override
        public Duration leaderCheckInterval() {
            return Duration.ofMillis(200);
        }

        @Override
        public Duration leaderLease() {
            return Duration.ofSeconds(5);
        }

        @Override
        public int maxConcurrent() {
            return 4;
        }

        @Override
        public Duration pollInterval() {
            return Duration.ofMillis(5);
        }

        @Override
        public Duration evictRetryInterval() {
            return Duration.ofMillis(5);
        }

        @Override
        public Duration commandRetryInterval() {
            return Duration.ofMillis(5);
        }

        @Override
        public Duration commandRetryMaxInterval() {
            return Duration.ofMillis(20);
        }
    };

    /**
     * With {@code on}: every policy on (restart-loop-suspend and recovery-ladder in dry-run), as the launcher sets
     * them; else all off.
     */
    private static PoliciesConfig policies(boolean on) {
        return new PoliciesConfig() {
            @Override
            public String defaultMode() {
                return on ? "on" : "off";
            }

            @Override
            public Map<String, String> mode() {
                return on ? Map.of("restart-loop-suspend", "dry-run", "recovery-ladder", "dry-run") : Map.of();
            }

            @Override
            public Duration interval() {
                // The test runs the periodic checks itself, on simulated time.
                return Duration.ofHours(1);
            }

            @Override
            public Duration startupGrace() {
                return Duration.ofSeconds(60);
            }

            @Override
            public Duration trainerSilence() {
                return Duration.ofSeconds(120);
            }

            @Override
            public Duration backoffInitial() {
                return Duration.ofMinutes(1);
            }

            @Override
            public Duration backoffMax() {
                return Duration.ofHours(1);
            }

            @Override
            public Brake brake() {
                throw new UnsupportedOperationException("the rig builds its brake from AutomationBrake defaults");
            }

            @Override
            public StaleCheckpoint staleCheckpoint() {
                return () -> false;
            }

            @Override
            public BackToService backToService() {
                return new BackToService() {
                    @Override
                    public String check() {
                        return "samples";
                    }

                    @Override
                    public Duration healthyWindow() {
                        return Duration.ofMinutes(10);
                    }

                    @Override
                    public Duration sampleMaxAge() {
                        return Duration.ofMinutes(2);
                    }

                    @Override
                    public boolean acceptTaintRemoval() {
                        return false;
                    }
                };
            }

            @Override
            public AdmissionFailures admissionFailures() {
                return new AdmissionFailures() {
                    @Override
                    public int threshold() {
                        return 5;
                    }

                    @Override
                    public Duration window() {
                        return Duration.ofMinutes(10);
                    }
                };
            }
        };
    }

    QuickStartRig(String name) throws Exception {
        this(name, true);
    }

    /** A rig whose policies are all on as in the quick start, or ({@code policiesOn} false) all off. */
    QuickStartRig(String name, boolean policiesOn) throws Exception {
        this(MigratedPostgres.start(name), true, START, policiesOn, false);
    }

    /**
     * The quick start over a database of the test's (kept open at close): a later rig over the same database is the
     * quick start started again, its demo journal (when {@code journaled}) in that database.
     */
    QuickStartRig(MigratedPostgres db, Instant start, boolean journaled) throws Exception {
        this(db, false, start, true, journaled);
    }

    private QuickStartRig(MigratedPostgres db, boolean ownsDb, Instant start, boolean policiesOn, boolean journaled)
            throws Exception {
        PoliciesConfig config = policies(policiesOn);
        this.db = db;
        this.ownsDb = ownsDb;
        this.start = start;
        this.clock = new MovableClock(start);
        runtime = ModelRuntimes.start(clock);
        IngestGateway gateway = (events, offsets) -> {
            runtime.enqueue(events, Duration.ofSeconds(30));
            for (Event e : events) {
                if (e.type() == io.lifeline.domain.event.EventType.GPU_SAMPLE) {
                    samples.incrementAndGet();
                } else {
                    delivered.add(e);
                }
            }
            return CompletableFuture.completedFuture(new IngestReceipt(events.size(), 0));
        };
        demo = journaled
                ? DemoForTests.runner(gateway, clock, new DemoJournalStore(db.dataSource()))
                : DemoForTests.runner(gateway, clock);
        store = ActionsForTests.store(db.dataSource());
        leadership = Leaderships.of(db.dataSource(), ACTIONS);
        executor = ActionsForTests.executor(
                store,
                DemoForTests.cluster(demo),
                sink(DemoForTests.commands(demo)),
                runtime,
                leadership,
                ACTIONS,
                clock);
        actions = ActionsForTests.service(store, executor, runtime, clock);
        policies = new DefaultPolicyService(new PolicyStore(db.dataSource(), new ObjectMapper(), store), config, clock);
        brake = new AutomationBrakeService(
                new BrakeStore(db.dataSource(), store),
                runtime,
                io.lifeline.domain.policy.AutomationBrake.Settings.defaults(),
                clock);
        policyRunner = new PolicyRunner(
                policies,
                actions,
                brake,
                executor,
                runtime,
                config,
                clock,
                ActionMetricsForTests.of(new SimpleMeterRegistry()),
                RecoveryConfigForTests.defaults());
    }

    /** A sink over the one channel, as the application's is over the channels configured. */
    private static TrainerCommandSink sink(CommandChannel channel) {
        return new TrainerCommandSink() {
            @Override
            public CompletionStage<SendAttempt> send(TrainerCommand c, Set<String> confirmed) {
                if (!channel.accepts(c)) {
                    return CompletableFuture.completedFuture(new SendAttempt(Set.of(), Map.of()));
                }
                return channel.send(c)
                        .handle((v, e) -> e == null
                                ? SendAttempt.confirmed(channel.name())
                                : new SendAttempt(Set.of(), Map.of(channel.name(), String.valueOf(e.getMessage()))));
            }
        };
    }

    /** Applies events straight to the model (an earlier session's, say), in order. */
    void apply(List<Event> events) throws Exception {
        for (int i = 0; i < events.size(); i += 1000) {
            runtime.enqueue(events.subList(i, Math.min(events.size(), i + 1000)), Duration.ofSeconds(30));
        }
        runtime.barrier().get(30, TimeUnit.SECONDS);
    }

    /** Starts the executor (once it leads), the policies and the demo fleet, as the application does at start-up. */
    void start() throws Exception {
        start(null);
    }

    /** Like {@link #start()}, with the demo running {@code scenario} (null: the built-in one) from the clock's time. */
    void start(io.lifeline.demo.Scenario scenario) throws Exception {
        executor.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!executor.isLeader()) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("the executor did not become leader");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        policyRunner.onOpened(new IngestOpened());
        if (scenario == null) {
            demo.start();
        } else {
            demo.start(scenario, 1.0, Duration.ZERO);
        }
    }

    /**
     * Moves simulated time on by {@code seconds}, one second at a time: each second the demo catches up with the
     * clock and the model applies what it sent, the executor gets a moment of real time, and every
     * {@code lifeline.policies.interval} (15 s) the periodic policy checks run.
     */
    void advance(int seconds) throws Exception {
        for (int i = 0; i < seconds; i++) {
            clock.advance(Duration.ofSeconds(1));
            Instant target = clock.instant();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (demo.simulatedNow().isBefore(target)) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("the demo did not reach " + target);
                }
                TimeUnit.MILLISECONDS.sleep(2);
            }
            TimeUnit.MILLISECONDS.sleep(15);
            runtime.barrier().get(30, TimeUnit.SECONDS);
            if (Duration.between(start, target).getSeconds() % 15 == 0) {
                policyRunner.periodic();
            }
        }
    }

    <T> T read(Function<LiveModel, T> q) throws Exception {
        return runtime.read(q).get(30, TimeUnit.SECONDS);
    }

    /** Every action a policy requested, with its steps. */
    List<ActionView> policyActions() {
        List<ActionView> out = new ArrayList<>();
        String cursor = null;
        do {
            var page = actions.list(new ActionQuery(null, null, null, null, null, null, 200, cursor));
            for (ActionView a : page.items()) {
                if (a.requestedBy().startsWith("policy:")) {
                    out.add(actions.find(a.id()).orElse(a));
                }
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    @Override
    public void close() throws Exception {
        demo.stop();
        policyRunner.stop();
        executor.stop();
        Leaderships.close(leadership);
        ModelRuntimes.stop(runtime);
        if (ownsDb) {
            db.close();
        }
    }

    /** The demo's co-location window (window {@code demo-day}), as the application installs it with the demo. */
    void demoWindow() {
        var engine = policies.engine();
        engine.colocation(
                engine.colocation().withRules(engine.colocation().rules().with(DemoForTests.window(demo.runStart()))));
    }
}
