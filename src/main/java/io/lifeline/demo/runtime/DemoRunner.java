package io.lifeline.demo.runtime;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Runs the demo fleet: on one daemon thread ({@code lifeline-demo}), every tick advances the simulator to
 * {@code start + elapsed real time x speed} and submits the new events to the {@link IngestGateway}, the same
 * entry point real events use. One submission is in flight at a time and the tick never waits for it: when
 * ingest pushes back, the events are kept and offered again on a later tick (their ids make a repeat harmless).
 *
 * <p>Every call that changes the fleet (a trainer command, a cluster action) goes through a {@link SimCall} made on the
 * tick thread and kept in the {@link DemoJournal} with the simulated time it was made at, together with how far the
 * fleet's events reached ingest. {@link #start()} continues the stored run when there is one for the same scenario: it
 * rebuilds the fleet by making the same calls again (the simulator is deterministic), hands over the events ingest had
 * not taken yet, and goes on: the fleet lived through the last {@link #RESTART_CATCH_UP} of the time the application was
 * stopped (caught up at once, as after an outage) and stood still before that. So a restart neither registers the fleet
 * again nor replays its scripted interruptions, and its jobs go on from their steps.
 *
 * <p>It does not decide when to start: whoever wires the application calls {@link #start()}.
 */
@ApplicationScoped
public class DemoRunner {

    private static final Logger LOG = Logger.getLogger(DemoRunner.class);

    /** A submission not answered within this is given up and its events offered again. */
    static final long SUBMIT_TIMEOUT_MS = 30_000;
    /** Failures other than back-pressure are retried this many times, then the batch is dropped. */
    static final int MAX_ATTEMPTS = 5;
    /** After an outage the simulation catches up by at most this much real-time-equivalent per tick. */
    static final long MAX_CATCH_UP_MS = 30_000;
    /** Longest wait for a call on the simulated cluster. */
    static final long CLUSTER_CALL_TIMEOUT_MS = 10_000;
    /** Back-pressure is logged at most once per this many milliseconds. */
    private static final long BACK_PRESSURE_LOG_MS = 10_000;

    /**
     * Of the time the application was stopped, the fleet lives this much (the end of it, caught up at once after a
     * restart, as after an outage) and stands still for the rest: a quick restart loses nothing of the fleet's life, a
     * long stop does not flood ingest with it.
     */
    static final Duration RESTART_CATCH_UP = Duration.ofMinutes(10);
    /** The rebuild of a stored run advances the simulation this much at a time, so its events never pile up. */
    private static final Duration REPLAY_STEP = Duration.ofMinutes(10);
    /** How often the journal is written when nothing asks for it sooner. */
    private static final long JOURNAL_FLUSH_MS = 1_000;

    private final DemoConfig config;
    private final IngestGateway gateway;
    private final Clock clock;
    private final DemoJournal journal;
    private final ScenarioParser parser = new ScenarioParser();

    private ScheduledExecutorService executor;
    private ScheduledExecutorService journalWriter;
    /** Whether this run's calls and progress are journaled (the configured scenario's run, not one given by a caller). */
    private boolean journaling;

    private volatile Instant runStart;
    // Confined to the tick thread once running.
    private FleetSimulator simulator;
    /** Events of the run handed over so far (taken by ingest or given up), counting those of earlier starts. */
    private long settled;
    /** The fleet's time the pending events reach. */
    private Instant pendingThrough;

    private final Object journalLock = new Object();
    // Guarded by journalLock.
    private long nextCallSeq;
    private final List<DemoJournal.Entry> unwrittenCalls = new ArrayList<>();
    private DemoJournal.Mark unwrittenMark;
    /**
     * When a failed journal write was last logged: one interval before the epoch, so that the first failure is logged
     * (from Long.MIN_VALUE, {@code now - last} overflowed to a negative number and no failure ever was).
     */
    private long lastJournalFailureLog = -BACK_PRESSURE_LOG_MS;
    /** The scenario's jobs ({@code namespace/name}), fixed once started. */
    private volatile Set<String> jobs = Set.of();

    private Instant simStart;
    private long realStartMillis;
    private double speed;
    /** Simulated history before the start ({@link #start(Scenario, double, Duration)}), 0 otherwise. */
    private long historyMillis;

    private List<Event> pending = List.of();
    private CompletableFuture<IngestReceipt> inFlight;
    private long inFlightSince;
    private int attempts;
    /** When back-pressure was last logged; as {@link #lastJournalFailureLog}. */
    private long lastBackPressureLog = -BACK_PRESSURE_LOG_MS;
    // Read from other threads.
    private volatile Instant simulatedNow;
    private volatile long delivered;
    private volatile long dropped;

    @Inject
    public DemoRunner(DemoConfig config, IngestGateway gateway, DemoJournal journal) {
        this(config, gateway, Clock.systemUTC(), journal);
    }

    /** A runner without a journal: each start is a new run. */
    DemoRunner(DemoConfig config, IngestGateway gateway) {
        this(config, gateway, Clock.systemUTC(), DemoJournal.NONE);
    }

    DemoRunner(DemoConfig config, IngestGateway gateway, Clock clock) {
        this(config, gateway, clock, DemoJournal.NONE);
    }

    DemoRunner(DemoConfig config, IngestGateway gateway, Clock clock, DemoJournal journal) {
        this.config = config;
        this.gateway = gateway;
        this.clock = clock;
        this.journal = journal;
    }

    /**
     * Loads the scenario and starts ticking: continues the run the journal holds for this scenario (rebuilt on the
     * tick thread before its first tick), or starts a new one now. Does nothing when already running.
     *
     * @throws ScenarioException when the scenario file is missing or invalid
     * @throws IllegalArgumentException when speed or tick interval are out of range
     */
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        Scenario scenario = prepare();
        String digest = digest(scenario);
        DemoJournal.Stored stored = null;
        try {
            stored = journal.load().filter(r -> r.scenario().equals(digest)).orElse(null);
            if (stored == null) {
                journal.begin(digest, simStart);
            }
            journaling = true;
        } catch (RuntimeException e) {
            LOG.warnf(
                    "demo fleet: its journal cannot be used (%s); this run starts anew and will not be continued"
                            + " after a restart",
                    e.getMessage());
        }
        resetJournal(stored == null ? 0 : stored.calls().size());
        runStart = stored == null ? simStart : stored.start();
        startTicking(scenario, config.scenarioFile().orElse("built-in"), stored);
    }

    /**
     * Starts ticking the given scenario at the given speed instead of the configured ones (a test or a tool that
     * needs a fleet of its own shape), as if it had already run for {@code alreadyRunning}: that history is
     * simulated at once (events dated in the past, handed to ingest over the first ticks), so the fleet is live and
     * its jobs train when the caller starts acting on it. Does nothing when already running.
     *
     * @throws IllegalArgumentException when the scenario has problems or speed or tick interval are out of range
     */
    public synchronized void start(Scenario scenario, double speed, Duration alreadyRunning) {
        if (executor != null) {
            return;
        }
        if (alreadyRunning.isNegative()) {
            throw new IllegalArgumentException("alreadyRunning: must not be negative, got " + alreadyRunning);
        }
        Scenario s = prepare(scenario, speed);
        this.simStart = simStart.minus(alreadyRunning);
        this.simulator = new FleetSimulator(s, simStart);
        this.simulatedNow = simStart;
        this.historyMillis = alreadyRunning.toMillis();
        this.journaling = false;
        this.runStart = simStart;
        startTicking(s, "given by the caller", null);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // writeJournal() and tickSafely() catch and log their own failures
    private void startTicking(Scenario scenario, String source, DemoJournal.Stored stored) {
        executor = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-demo"));
        if (journaling) {
            journalWriter = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-demo-journal"));
            journalWriter.scheduleWithFixedDelay(
                    this::writeJournal, JOURNAL_FLUSH_MS, JOURNAL_FLUSH_MS, TimeUnit.MILLISECONDS);
        }
        if (stored != null) {
            // Before the first tick and before any command, on the thread that owns the simulator.
            executor.execute(() -> continueRun(scenario, stored));
        }
        executor.scheduleWithFixedDelay(this::tickSafely, 0, config.tickMillis(), TimeUnit.MILLISECONDS);
        int nodes = scenario.pools().stream().mapToInt(Scenario.Pool::nodeCount).sum();
        LOG.infof(
                "demo fleet %s: %d nodes in %d pools, %d jobs, speed %.1fx, scenario %s",
                stored == null ? "started" : "continuing its run of " + stored.start(),
                nodes,
                scenario.pools().size(),
                scenario.jobs().size(),
                speed,
                source);
    }

    /**
     * Stops ticking and writes the journal; events not yet accepted by ingest are discarded here (a later start of the
     * same run hands them over again).
     */
    public synchronized void stop() {
        if (executor == null) {
            return;
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("demo fleet: tick thread did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
        if (journalWriter != null) {
            journalWriter.shutdown();
            try {
                if (!journalWriter.awaitTermination(5, TimeUnit.SECONDS)) {
                    LOG.warn("demo fleet: journal writer did not stop within 5 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            journalWriter = null;
            writeJournal();
        }
        LOG.infof("demo fleet stopped at simulated %s after %d events", simulatedNow, delivered);
    }

    /**
     * Stops with the other {@link ShutdownOrder#BACKGROUND} work: the last journal write needs the database, which
     * stops once the event log is written, before any bean is destroyed.
     */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void shutdown() {
        stop();
    }

    public synchronized boolean running() {
        return executor != null;
    }

    /** When the fleet's run started (simulated time): the first start's, for a run continued after a restart. */
    public Instant runStart() {
        return runStart;
    }

    /** The simulated time reached, or null before the first start. */
    public Instant simulatedNow() {
        return simulatedNow;
    }

    /** Events ingest accepted so far. */
    public long delivered() {
        return delivered;
    }

    /** Events given up after repeated failures other than back-pressure. */
    public long dropped() {
        return dropped;
    }

    /** Asks a demo job to checkpoint now (see {@link FleetSimulator#requestCheckpoint}). */
    public void requestCheckpoint(String commandId, String job, Instant deadline) {
        onTickThread(SimCall.checkpoint(commandId, "checkpoint", job, deadline, false));
    }

    /** Asks a demo job to train on {@code nodes} nodes (see {@link FleetSimulator#requestRescale}). */
    public void requestRescale(String commandId, String job, int nodes) {
        onTickThread(SimCall.rescale(commandId, job, nodes));
    }

    /** Asks a demo job to save and stop (see {@link FleetSimulator#suspend}). */
    public void suspend(String commandId, String job) {
        onTickThread(SimCall.suspend(commandId, job));
    }

    /** Asks a suspended demo job to start again (see {@link FleetSimulator#resume}). */
    public void resume(String commandId, String job) {
        onTickThread(SimCall.resume(commandId, job));
    }

    /** Asks a demo job to save before leaving, acknowledged under {@code command} (for example prepare_exit). */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline) {
        requestCheckpoint(commandId, command, job, deadline, false);
    }

    /** Like the above; {@code durable}: on storage that outlives the node (see {@link FleetSimulator}). */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline, boolean durable) {
        onTickThread(SimCall.checkpoint(commandId, command, job, deadline, durable));
    }

    /** Asks a demo job to restart from a named checkpoint (see {@link FleetSimulator#restore}). */
    public void restore(String commandId, String job, String checkpointId) {
        onTickThread(SimCall.restore(commandId, job, checkpointId));
    }

    /** Changes a demo job's checkpoint interval (see {@link FleetSimulator#setCheckpointInterval}). */
    public void setCheckpointInterval(String commandId, String job, long seconds) {
        onTickThread(SimCall.interval(commandId, job, seconds));
    }

    /** Tells a demo job's trainers something that needs no action of theirs (see {@link FleetSimulator#note}). */
    public void note(String commandId, String command, String job) {
        onTickThread(SimCall.note(commandId, command, job));
    }

    /** Whether the demo runs and has this job ({@code namespace/name}). */
    public boolean hasJob(String job) {
        return running() && jobs.contains(job);
    }

    /**
     * Makes a call on the simulated cluster (cordon, evict, scale...) on the tick thread, journaled, and waits for its
     * answer, so it sees and changes the simulation between two ticks.
     *
     * @throws IllegalStateException when the demo is not running or does not answer within 10 s
     * @throws IllegalArgumentException when the simulator refuses the call's arguments
     */
    Object act(SimCall call) {
        return onCluster(s -> apply(call));
    }

    /**
     * Runs a function of the simulator on the tick thread and waits for its answer: for reads (the pods on a node). A
     * change made through it is not journaled, so a restart does not make it again: changes go through {@link SimCall}s.
     *
     * @throws IllegalStateException when the demo is not running or does not answer within 10 s
     */
    public <T> T onCluster(Function<FleetSimulator, T> call) {
        Future<T> f;
        synchronized (this) {
            if (executor == null) {
                throw new IllegalStateException("the demo fleet is not running");
            }
            f = executor.submit(() -> call.apply(simulator));
        }
        try {
            return f.get(CLUSTER_CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
        } catch (TimeoutException e) {
            f.cancel(false);
            throw new IllegalStateException("the demo fleet did not answer within " + CLUSTER_CALL_TIMEOUT_MS + " ms");
        }
    }

    private synchronized void onTickThread(SimCall command) {
        if (executor == null) {
            throw new IllegalStateException("the demo fleet is not running");
        }
        executor.execute(() -> {
            try {
                apply(command);
            } catch (RuntimeException e) {
                LOG.warnf("demo fleet: command refused: %s", e.getMessage());
            }
        });
    }

    /** Makes a call on the simulator (tick thread) and journals it once made: a refused call changed nothing. */
    private Object apply(SimCall call) {
        Instant at = simulator.now();
        Object answer = call.applyTo(simulator);
        if (journaling) {
            synchronized (journalLock) {
                unwrittenCalls.add(new DemoJournal.Entry(nextCallSeq++, at, call));
            }
            ScheduledExecutorService w = journalWriter;
            if (w != null) {
                try {
                    w.execute(this::writeJournal);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // Stopping: stop() writes what is left.
                }
            }
        }
        return answer;
    }

    private void resetJournal(long calls) {
        synchronized (journalLock) {
            nextCallSeq = calls;
            unwrittenCalls.clear();
            unwrittenMark = null;
        }
        settled = 0;
    }

    /** Notes that a batch reached ingest (or was given up): the journal's mark moves past it. */
    private void settle(List<Event> batch, Instant through) {
        settled += batch.size();
        if (journaling && !batch.isEmpty()) {
            synchronized (journalLock) {
                unwrittenMark = new DemoJournal.Mark(settled, through, describe(batch.get(batch.size() - 1)));
            }
        }
    }

    /** Writes the calls and the mark not written yet (journal thread, and once more at stop). */
    @SuppressWarnings("ReferenceEquality") // the mark just written is still the latest one
    private void writeJournal() {
        List<DemoJournal.Entry> calls;
        DemoJournal.Mark mark;
        synchronized (journalLock) {
            if (unwrittenCalls.isEmpty() && unwrittenMark == null) {
                return;
            }
            calls = List.copyOf(unwrittenCalls);
            mark = unwrittenMark;
        }
        try {
            journal.write(calls, mark);
        } catch (RuntimeException e) {
            long now = System.currentTimeMillis();
            if (now - lastJournalFailureLog >= BACK_PRESSURE_LOG_MS) {
                lastJournalFailureLog = now;
                LOG.warnf("demo fleet: writing its journal failed (%s); trying again", e.getMessage());
            }
            return;
        }
        synchronized (journalLock) {
            unwrittenCalls.subList(0, calls.size()).clear();
            if (unwrittenMark == mark) {
                unwrittenMark = null;
            }
        }
    }

    /**
     * Rebuilds the stored run (tick thread, before the first tick): the same calls at the same times on a simulator of
     * the same scenario and start, the events ingest already took left out, the others handed over first; then the fleet
     * resumes now. When the rebuild does not give back what was stored (the simulator changed since), a new run starts.
     */
    private void continueRun(Scenario scenario, DemoJournal.Stored stored) {
        long began = System.nanoTime();
        try {
            List<Event> rest = rebuild(scenario, stored);
            Instant now = clock.instant();
            Instant stopped = simulator.now();
            pendingThrough = stopped;
            Duration gap = stopped.isBefore(now) ? Duration.between(stopped, now) : Duration.ZERO;
            Duration caughtUp = gap.compareTo(RESTART_CATCH_UP) > 0 ? RESTART_CATCH_UP : gap;
            if (gap.compareTo(caughtUp) > 0) {
                apply(SimCall.continueAt(now.minus(caughtUp)));
            }
            simStart = simulator.now();
            realStartMillis = clock.millis();
            historyMillis = caughtUp.toMillis();
            simulatedNow = simulator.now();
            pending = rest;
            LOG.infof(
                    "demo fleet continues its run of %s where its history stopped at %s (%d events, %d calls made"
                            + " again in %d ms; %d events handed over now); of the %d s it was stopped, it stood still for %d s"
                            + " and catches up the last %d s",
                    stored.start(),
                    stopped,
                    settled,
                    stored.calls().size(),
                    (System.nanoTime() - began) / 1_000_000,
                    rest.size(),
                    gap.toSeconds(),
                    gap.minus(caughtUp).toSeconds(),
                    caughtUp.toSeconds());
        } catch (RuntimeException e) {
            LOG.warnf(
                    "demo fleet: its stored run of %s cannot be continued (%s); starting a new run",
                    stored.start(), e.getMessage());
            prepare(scenario, speed);
            resetJournal(0);
            try {
                journal.begin(digest(scenario), simStart);
            } catch (RuntimeException again) {
                journaling = false;
                LOG.warnf("demo fleet: its journal cannot be used (%s)", again.getMessage());
            }
        }
    }

    /** The stored run's simulator, rebuilt; answers the events ingest has not taken yet. */
    private List<Event> rebuild(Scenario scenario, DemoJournal.Stored stored) {
        FleetSimulator sim = new FleetSimulator(scenario, stored.start());
        DemoJournal.Mark mark = stored.mark();
        long toSkip = mark == null ? 0 : mark.settled();
        List<Event> rest = new ArrayList<>();
        Event[] lastSkipped = new Event[1];
        long[] seen = new long[1];
        java.util.function.Consumer<List<Event>> take = events -> {
            for (Event e : events) {
                if (seen[0] < toSkip) {
                    lastSkipped[0] = e;
                } else {
                    rest.add(e);
                }
                seen[0]++;
            }
        };
        for (DemoJournal.Entry c : stored.calls()) {
            advance(sim, c.at(), take);
            c.call().applyTo(sim);
        }
        if (mark != null) {
            advance(sim, mark.through(), take);
        }
        take.accept(sim.advanceTo(sim.now()));
        if (seen[0] < toSkip) {
            throw new IllegalStateException(
                    "the rebuilt fleet gave " + seen[0] + " events, " + toSkip + " had reached ingest");
        }
        if (mark != null && toSkip > 0 && !describe(lastSkipped[0]).equals(mark.lastEvent())) {
            throw new IllegalStateException("the rebuilt fleet's event " + toSkip + " is " + describe(lastSkipped[0])
                    + ", the stored one " + mark.lastEvent());
        }
        this.simulator = sim;
        this.settled = toSkip;
        return rest;
    }

    private static void advance(FleetSimulator sim, Instant until, java.util.function.Consumer<List<Event>> take) {
        while (sim.now().isBefore(until)) {
            Instant step = sim.now().plus(REPLAY_STEP);
            take.accept(sim.advanceTo(step.isBefore(until) ? step : until));
        }
        take.accept(sim.advanceTo(until));
    }

    /** An event as the journal's mark names it. */
    static String describe(Event e) {
        return e.id() + " " + e.type().wireName() + " " + e.subject() + " " + e.time();
    }

    /** What identifies a scenario for the journal: the same digest, the same fleet and jobs. */
    static String digest(Scenario scenario) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest(scenario.toString().getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loads the scenario and creates the simulator, starting now. */
    Scenario prepare() {
        return prepare(null, config.speed());
    }

    /** Creates the simulator for a given scenario (null: the configured one) at a given speed, starting now. */
    Scenario prepare(Scenario given, double s) {
        if (!(s > 0 && s <= 1_000_000)) {
            throw new IllegalArgumentException("lifeline.demo.speed: must be > 0 and <= 1000000, got " + s);
        }
        long tick = config.tickMillis();
        if (tick < 10 || tick > 60_000) {
            throw new IllegalArgumentException("lifeline.demo.tick-millis: must be between 10 and 60000, got " + tick);
        }
        Scenario scenario = given != null
                ? given
                : config.scenarioFile().map(f -> parser.load(Path.of(f))).orElseGet(parser::loadDefault);
        this.speed = s;
        this.simStart = clock.instant();
        this.realStartMillis = clock.millis();
        this.simulator = new FleetSimulator(scenario, simStart);
        this.jobs = scenario.jobs().stream().map(Scenario.Job::key).collect(Collectors.toUnmodifiableSet());
        this.simulatedNow = simStart;
        this.historyMillis = 0;
        this.pending = List.of();
        this.pendingThrough = simStart;
        this.inFlight = null;
        return scenario;
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            // An exception would cancel the schedule: log it and keep the demo going.
            LOG.error("demo fleet: tick failed", e);
        }
    }

    /**
     * One tick: settle the submission in flight (if it is still running, wait for a later tick), then offer
     * again what ingest did not take, or advance the simulation and submit what it produced.
     */
    void tick() {
        long now = clock.millis();
        if (inFlight != null && stillWaiting(now)) {
            return;
        }
        if (pending.isEmpty()) {
            Instant wallTarget = simStart.plusMillis(historyMillis + (long) ((now - realStartMillis) * speed));
            Instant capped = simulatedNow.plusMillis((long) (MAX_CATCH_UP_MS * speed));
            Instant target = wallTarget.isAfter(capped) ? capped : wallTarget;
            pending = simulator.advanceTo(target);
            simulatedNow = simulator.now();
            pendingThrough = simulatedNow;
        }
        if (pending.isEmpty()) {
            return;
        }
        inFlightSince = now;
        try {
            inFlight = gateway.submit(pending).toCompletableFuture();
        } catch (RuntimeException e) {
            inFlight = CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Settles the submission in flight: true while it is still running (the tick then ends without waiting).
     * Afterwards {@code pending} holds what must be offered again, or nothing.
     */
    @SuppressWarnings("NonAtomicVolatileUpdate") // only the demo's thread writes these
    private boolean stillWaiting(long now) {
        if (!inFlight.isDone()) {
            if (now - inFlightSince < SUBMIT_TIMEOUT_MS) {
                return true;
            }
            inFlight.cancel(false);
            inFlight = null;
            LOG.warnf(
                    "demo fleet: ingest did not answer within %d s for %d events (%s); offering them again",
                    SUBMIT_TIMEOUT_MS / 1000, pending.size(), concerned(pending));
            return false;
        }
        Throwable failure = failureOf(inFlight);
        inFlight = null;
        if (failure == null) {
            delivered += pending.size();
            settle(pending, pendingThrough);
            pending = List.of();
            attempts = 0;
        } else if (failure instanceof RetryLaterException) {
            if (now - lastBackPressureLog >= BACK_PRESSURE_LOG_MS) {
                lastBackPressureLog = now;
                LOG.infof(
                        "demo fleet: ingest pushed back (%s); offering %d events (%s) again each tick",
                        failure.getMessage(), pending.size(), concerned(pending));
            }
        } else if (++attempts >= MAX_ATTEMPTS) {
            LOG.errorf(
                    failure,
                    "demo fleet: dropping %d events after %d failed submissions (%s)",
                    pending.size(),
                    attempts,
                    concerned(pending));
            dropped += pending.size();
            settle(pending, pendingThrough);
            pending = List.of();
            attempts = 0;
        } else {
            LOG.warnf(
                    "demo fleet: submitting %d events failed (attempt %d of %d, %s): %s",
                    pending.size(), attempts, MAX_ATTEMPTS, concerned(pending), failure.toString());
        }
        return false;
    }

    private static Throwable failureOf(CompletableFuture<?> f) {
        try {
            f.get();
            return null;
        } catch (ExecutionException | CompletionException e) {
            return e.getCause() == null ? e : e.getCause();
        } catch (CancellationException e) {
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** The jobs and nodes a batch is about, lifecycle events first: what a failure log should name. */
    static String concerned(List<Event> events) {
        Map<String, String> subjects = new LinkedHashMap<>();
        for (Event e : events) {
            if (!e.isTelemetry() && subjects.size() < 5) {
                subjects.putIfAbsent(e.subject(), e.type().wireName());
            }
        }
        long telemetry = events.stream().filter(Event::isTelemetry).count();
        StringBuilder b = new StringBuilder();
        subjects.forEach((subject, type) -> b.append(b.length() == 0 ? "" : ", ")
                .append(subject)
                .append(' ')
                .append(type));
        if (telemetry > 0) {
            b.append(b.length() == 0 ? "" : ", ").append(telemetry).append(" telemetry events");
        }
        return b.toString();
    }
}
