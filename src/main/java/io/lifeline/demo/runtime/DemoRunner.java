package io.lifeline.demo.runtime;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.Event;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.store.RetryLaterException;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    private final DemoConfig config;
    private final IngestGateway gateway;
    private final Clock clock;
    private final ScenarioParser parser = new ScenarioParser();

    private ScheduledExecutorService executor;
    // Confined to the tick thread once running.
    private FleetSimulator simulator;
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
    private long lastBackPressureLog = Long.MIN_VALUE;
    // Read from other threads.
    private volatile Instant simulatedNow;
    private volatile long delivered;
    private volatile long dropped;

    @Inject
    public DemoRunner(DemoConfig config, IngestGateway gateway) {
        this(config, gateway, Clock.systemUTC());
    }

    DemoRunner(DemoConfig config, IngestGateway gateway, Clock clock) {
        this.config = config;
        this.gateway = gateway;
        this.clock = clock;
    }

    /**
     * Loads the scenario and starts ticking. Does nothing when already running.
     *
     * @throws ScenarioException when the scenario file is missing or invalid
     * @throws IllegalArgumentException when speed or tick interval are out of range
     */
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        startTicking(prepare(), config.scenarioFile().orElse("built-in"));
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
        startTicking(s, "given by the caller");
    }

    private void startTicking(Scenario scenario, String source) {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lifeline-demo");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::tickSafely, 0, config.tickMillis(), TimeUnit.MILLISECONDS);
        int nodes = scenario.pools().stream().mapToInt(Scenario.Pool::nodeCount).sum();
        LOG.infof("demo fleet started: %d nodes in %d pools, %d jobs, speed %.1fx, scenario %s", nodes,
                scenario.pools().size(), scenario.jobs().size(), speed, source);
    }

    /** Stops ticking; events not yet accepted by ingest are discarded. */
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
        LOG.infof("demo fleet stopped at simulated %s after %d events", simulatedNow, delivered);
    }

    @PreDestroy
    void shutdown() {
        stop();
    }

    public synchronized boolean running() {
        return executor != null;
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
        onTickThread(() -> simulator.requestCheckpoint(commandId, job, deadline));
    }

    /** Asks a demo job to train on {@code nodes} nodes (see {@link FleetSimulator#requestRescale}). */
    public void requestRescale(String commandId, String job, int nodes) {
        onTickThread(() -> simulator.requestRescale(commandId, job, nodes));
    }

    /** Asks a demo job to save and stop (see {@link FleetSimulator#suspend}). */
    public void suspend(String commandId, String job) {
        onTickThread(() -> simulator.suspend(commandId, job));
    }

    /** Asks a suspended demo job to start again (see {@link FleetSimulator#resume}). */
    public void resume(String commandId, String job) {
        onTickThread(() -> simulator.resume(commandId, job));
    }

    /** Asks a demo job to save before leaving, acknowledged under {@code command} (for example prepare_exit). */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline) {
        requestCheckpoint(commandId, command, job, deadline, false);
    }

    /** Like the above; {@code durable}: on storage that outlives the node (see {@link FleetSimulator}). */
    public void requestCheckpoint(String commandId, String command, String job, Instant deadline, boolean durable) {
        onTickThread(() -> simulator.requestCheckpoint(commandId, command, job, deadline, durable));
    }

    /** Asks a demo job to restart from a named checkpoint (see {@link FleetSimulator#restore}). */
    public void restore(String commandId, String job, String checkpointId) {
        onTickThread(() -> simulator.restore(commandId, job, checkpointId));
    }

    /** Changes a demo job's checkpoint interval (see {@link FleetSimulator#setCheckpointInterval}). */
    public void setCheckpointInterval(String commandId, String job, long seconds) {
        onTickThread(() -> simulator.setCheckpointInterval(commandId, job, seconds));
    }

    /** Tells a demo job's trainers something that needs no action of theirs (see {@link FleetSimulator#note}). */
    public void note(String commandId, String command, String job) {
        onTickThread(() -> simulator.note(commandId, command, job));
    }

    /** Whether the demo runs and has this job ({@code namespace/name}). */
    public boolean hasJob(String job) {
        return running() && jobs.contains(job);
    }

    /**
     * Runs a call on the simulated cluster (cordon, evict, scale...) on the tick thread and waits for its answer,
     * so it sees and changes the simulation between two ticks.
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

    private synchronized void onTickThread(Runnable command) {
        if (executor == null) {
            throw new IllegalStateException("the demo fleet is not running");
        }
        executor.execute(() -> {
            try {
                command.run();
            } catch (RuntimeException e) {
                LOG.warnf("demo fleet: command refused: %s", e.getMessage());
            }
        });
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
        Scenario scenario = given != null ? given
                : config.scenarioFile().map(f -> parser.load(Path.of(f))).orElseGet(parser::loadDefault);
        this.speed = s;
        this.simStart = clock.instant();
        this.realStartMillis = clock.millis();
        this.simulator = new FleetSimulator(scenario, simStart);
        this.jobs = scenario.jobs().stream().map(Scenario.Job::key).collect(Collectors.toUnmodifiableSet());
        this.simulatedNow = simStart;
        this.historyMillis = 0;
        this.pending = List.of();
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
    private boolean stillWaiting(long now) {
        if (!inFlight.isDone()) {
            if (now - inFlightSince < SUBMIT_TIMEOUT_MS) {
                return true;
            }
            inFlight.cancel(false);
            inFlight = null;
            LOG.warnf("demo fleet: ingest did not answer within %d s for %d events (%s); offering them again",
                    SUBMIT_TIMEOUT_MS / 1000, pending.size(), concerned(pending));
            return false;
        }
        Throwable failure = failureOf(inFlight);
        inFlight = null;
        if (failure == null) {
            delivered += pending.size();
            pending = List.of();
            attempts = 0;
        } else if (failure instanceof RetryLaterException) {
            if (now - lastBackPressureLog >= BACK_PRESSURE_LOG_MS) {
                lastBackPressureLog = now;
                LOG.infof("demo fleet: ingest pushed back (%s); offering %d events (%s) again each tick",
                        failure.getMessage(), pending.size(), concerned(pending));
            }
        } else if (++attempts >= MAX_ATTEMPTS) {
            LOG.errorf(failure, "demo fleet: dropping %d events after %d failed submissions (%s)", pending.size(),
                    attempts, concerned(pending));
            dropped += pending.size();
            pending = List.of();
            attempts = 0;
        } else {
            LOG.warnf("demo fleet: submitting %d events failed (attempt %d of %d, %s): %s", pending.size(), attempts,
                    MAX_ATTEMPTS, concerned(pending), failure.toString());
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
        subjects.forEach((subject, type) -> b.append(b.length() == 0 ? "" : ", ").append(subject).append(' ').append(type));
        if (telemetry > 0) {
            b.append(b.length() == 0 ? "" : ", ").append(telemetry).append(" telemetry events");
        }
        return b.toString();
    }
}
