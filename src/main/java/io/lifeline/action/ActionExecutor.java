package io.lifeline.action;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.ActionsConfig;
import io.lifeline.domain.action.ActionState;
import io.lifeline.eventlog.Fence;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.metrics.ActionMetrics;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.ModelRuntime;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Runs actions' steps, on the leader replica only. It starts once the model is rebuilt (so plans and waits see the
 * fleet as it is), takes over every unfinished action when it becomes leader, and looks for actions submitted on
 * other replicas at each leader check.
 *
 * <p>Waiting holds no worker. A step whose condition is not met yet ends the run of its procedure
 * ({@link StepRunner.Waiting}); the worker is freed and the same run (the action and its {@link StepRunner}, which
 * holds the steps done so far) is handed to a worker again after the pause the step asked for, so actions that only
 * wait for checkpoints never keep another action from its first step. The action stays in {@link #running} meanwhile,
 * so no scan starts it twice. A continuation is dropped when this replica stops or stops leading: the next leader
 * resumes the action from its stored steps, as after a crash.
 */
@ApplicationScoped
public class ActionExecutor {

    /** Told after every recorded step; the crash tests stop a run here as a dying process would. */
    public interface StepHook {
        void afterStep(String actionId, String stepName) throws InterruptedException;
    }

    private static final Logger LOG = Logger.getLogger(ActionExecutor.class);

    private final ActionStore store;
    private final ActionProcedures procedures;
    private final Leadership leadership;
    private final ActionsConfig config;
    private final Clock clock;
    private final ActionMetrics metrics;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final List<Consumer<ActionView>> finishedListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile StepHook hook = (id, step) -> {};
    private volatile ExecutorService workers;
    private volatile ScheduledExecutorService scanner;

    ActionExecutor(
            ActionStore store,
            ClusterActions cluster,
            TrainerCommandSink commands,
            ModelRuntime runtime,
            Leadership leadership,
            ActionsConfig config,
            Clock clock,
            ActionMetrics metrics) {
        this.metrics = metrics;
        this.store = store;
        this.procedures = new ActionProcedures(cluster, commands, runtime, clock, config);
        this.leadership = leadership;
        leadership.onChange(leader -> {
            if (leader) {
                scan();
            }
        });
        this.config = config;
        this.clock = clock;
    }

    void onOpened(@Observes IngestOpened opened) {
        if (config.executorEnabled()) {
            start();
        }
    }

    /** Starts competing for leadership and, once leader, executing. */
    @SuppressWarnings("FutureReturnValueIgnored") // scan() catches and logs its own failures
    public synchronized void start() {
        if (workers != null) {
            return;
        }
        workers = new ThreadPoolExecutor(
                config.maxConcurrent(),
                config.maxConcurrent(),
                60,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                Threads.daemon("lifeline-action"));
        leadership.start();
        scanner =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-action-scan"));
        long period = config.leaderCheckInterval().toMillis();
        scanner.scheduleWithFixedDelay(this::scan, period, period, TimeUnit.MILLISECONDS);
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    /**
     * Stops executing at once, as a crash would: running steps are interrupted and waiting ones dropped, all left as
     * they are, to be resumed by whichever replica leads next. Used at shutdown and by the crash tests.
     */
    @PreDestroy
    public synchronized void stop() {
        if (workers == null) {
            return;
        }
        scanner.shutdownNow();
        leadership.stop();
        workers.shutdownNow();
        try {
            workers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.clear();
        workers = null;
    }

    public boolean isLeader() {
        return workers != null && leadership.isLeader();
    }

    /** Runs the action now if this replica leads; otherwise the leader finds it at its next scan. */
    public void schedule(String id) {
        schedule(id, null);
    }

    /**
     * Like {@link #schedule(String)}, for an action just created: it is handed over as stored, which spares a read on
     * the way to its first step.
     */
    public void schedule(ActionView created) {
        schedule(created.id(), created);
    }

    private void schedule(String id, ActionView created) {
        ExecutorService w = workers;
        if (w == null || !isLeader() || !running.add(id)) {
            return;
        }
        try {
            w.execute(() -> execute(id, created));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            running.remove(id);
        }
    }

    /** Called with each action that reached a final state on this replica. */
    public void onFinished(Consumer<ActionView> listener) {
        finishedListeners.add(listener);
    }

    /** Test seam: called after every recorded step (for example to stop a run where a crash should happen). */
    public void hook(StepHook h) {
        this.hook = h;
    }

    private void scan() {
        if (!isLeader()) {
            return;
        }
        try {
            for (String id : store.unfinished()) {
                schedule(id);
            }
        } catch (RuntimeException e) {
            LOG.warnf("Could not look for unfinished actions: %s", e.getMessage());
        }
    }

    /** On a worker: the action's whole log context is set here, whatever the pooled thread inherited. */
    private void execute(String id, ActionView created) {
        try (LogContext about = created != null ? ActionLogContext.of(created) : LogContext.of(null, null, id)) {
            take(id, created);
        }
    }

    private void take(String id, ActionView created) {
        boolean handedOn = false;
        try {
            ActionView a = created != null && created.state() == ActionState.PENDING
                    ? created
                    : store.find(id).orElse(null);
            if (a == null || a.state().terminal()) {
                return;
            }
            long term = leadership.term();
            if (term == 0) {
                return;
            }
            try (LogContext target = ActionLogContext.of(a)) {
                boolean fresh = a.state() == ActionState.PENDING;
                if (fresh) {
                    // Started only if nobody asked to cancel it; the same statement checks, so the first step needs
                    // no cancellation check of its own (a notice's reaction waits on every round trip here).
                    if (!store.start(id, a.requestedBy(), clock.instant(), term)) {
                        if (store.cancelRequested(id)) {
                            finish(a, ActionState.PENDING, ActionState.CANCELLED, "cancelled before it started", term);
                        }
                        return;
                    }
                    a = new ActionView(
                            a.id(),
                            a.kind(),
                            a.target(),
                            a.params(),
                            a.reason(),
                            a.requestedBy(),
                            ActionState.RUNNING,
                            a.createdAt(),
                            a.updatedAt(),
                            a.deadline(),
                            a.impact(),
                            a.steps(),
                            "running");
                } else {
                    LOG.infof("Resuming %s %s on %s after a restart", a.kind().wire(), a.id(), a.target());
                }
                handedOn = true; // proceed lets it go when it ends
                proceed(a, new StepRunner(a, store, clock, hook::afterStep, fresh, term));
            }
        } catch (Fence.FencedException e) {
            LOG.warnf("Action %s not taken up: %s", id, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warnf("Action %s interrupted by an error, will be retried: %s", id, e.getMessage());
        } finally {
            if (!handedOn) {
                running.remove(id);
            }
        }
    }

    /**
     * Runs the procedure of a started action with its runner, from the top (recorded steps are skipped), until it
     * ends or a step waits; then it comes back here after the pause, on whichever worker is free.
     */
    private void proceed(ActionView a, StepRunner steps) {
        // Whichever worker it is on: the whole context is this action's.
        try (LogContext about = ActionLogContext.of(a)) {
            runSteps(a, steps);
        }
    }

    private void runSteps(ActionView a, StepRunner steps) {
        boolean waits = false;
        try {
            try {
                String outcome = procedures.run(a, steps);
                finish(a, ActionState.RUNNING, ActionState.SUCCEEDED, outcome, steps.term());
            } catch (StepRunner.StepFailed e) {
                finish(a, ActionState.RUNNING, ActionState.FAILED, e.getMessage(), steps.term());
            } catch (StepRunner.Cancelled e) {
                finish(
                        a,
                        ActionState.RUNNING,
                        ActionState.CANCELLED,
                        "cancelled; steps done before stay done",
                        steps.term());
            } catch (StepRunner.Waiting w) {
                waits = recheckLater(a, steps, w);
            }
        } catch (Fence.FencedException e) {
            // Deposed while running: stop here; the leader of the newer term resumes from the recorded steps.
            LOG.warnf("Action %s stopped: %s", a.id(), e.getMessage());
            metrics.fenced();
        } catch (InterruptedException e) {
            // Stopped mid-way (shutdown, lost leadership): the next leader resumes from the recorded steps.
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("Action %s interrupted by an error, will be retried: %s", a.id(), e.getMessage());
        } finally {
            if (!waits) {
                running.remove(a.id());
            }
        }
    }

    /**
     * Hands the run back to the workers after the wait's pause, or as soon as what it waits on completes (a command
     * send in flight); false when this replica no longer executes.
     */
    private boolean recheckLater(ActionView a, StepRunner steps, StepRunner.Waiting wait) {
        ExecutorService w = workers;
        ScheduledExecutorService timer = scanner;
        if (w == null || timer == null || !leadership.isLeader()) {
            return false;
        }
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable again = () -> {
            if (once.compareAndSet(false, true)) {
                recheck(w, a, steps);
            }
        };
        try {
            java.util.concurrent.ScheduledFuture<?> timed =
                    timer.schedule(again, Math.max(0, wait.recheckIn().toMillis()), TimeUnit.MILLISECONDS);
            if (wait.wakeOn() != null) {
                wait.wakeOn().whenComplete((r, e) -> {
                    if (timed.cancel(false)) {
                        try {
                            timer.execute(again);
                        } catch (java.util.concurrent.RejectedExecutionException stopped) {
                            // Stopped meanwhile: the run is dropped with the executor, as any waiting one.
                        }
                    }
                });
            }
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /** On the timer: back to a worker, unless the executor stopped since (then the run is dropped with it). */
    private void recheck(ExecutorService w, ActionView a, StepRunner steps) {
        if (w != workers) {
            return; // stopped (and perhaps started again): running was cleared, the scan takes the action up anew
        }
        if (leadership.term() != steps.term()) {
            // Another replica may lead now and run it from the stored steps; this one takes it up again from the
            // store if it leads again.
            running.remove(a.id());
            return;
        }
        try {
            w.execute(() -> proceed(a, steps));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            if (w == workers) {
                running.remove(a.id());
            }
        }
    }

    private void finish(ActionView a, ActionState from, ActionState to, String outcome, long term) {
        if (store.transition(a.id(), from, to, outcome, a.requestedBy(), clock.instant(), term)) {
            Duration took = Duration.between(a.createdAt(), clock.instant());
            metrics.actionFinished(a.kind().wire(), to.wire(), took);
            LOG.infof(
                    "%s %s on %s %s in %d ms: %s",
                    a.kind().wire(), a.id(), a.target(), to.wire(), took.toMillis(), outcome);
            store.find(a.id()).ifPresent(v -> finishedListeners.forEach(l -> l.accept(v)));
        }
    }
}
