package io.lifeline.action;

import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.StepResult;
import io.lifeline.domain.action.StepState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Runs an action's steps, each known by its name: a step already done (or skipped) in an earlier run is not run
 * again, so an action resumed after a restart picks up where it stopped. A step found RUNNING was interrupted
 * mid-way and runs again; steps are written to be idempotent (cordon twice is a no-op, evicting a gone pod finds
 * nothing).
 *
 * <p>A step that waits (for a checkpoint, a rendezvous, a PodDisruptionBudget) does not hold its thread: when its
 * condition is not met yet it throws {@link Waiting}, which ends the current run of the procedure with the step left
 * RUNNING. The executor runs the procedure again, with this same runner, after the pause the step asked for; the
 * steps already done are skipped from what this runner holds, and the waiting step is checked again without being
 * written again. One runner is used by one thread at a time.
 */
final class StepRunner {

    private static final Logger LOG = Logger.getLogger(StepRunner.class);

    /** The body of a step. */
    interface Body {
        StepOutcome run() throws Exception;
    }

    /** How a step ended; FAILED stops the action unless the step is marked as tolerated. */
    record StepOutcome(StepState state, String detail, StepResult result) {
        StepOutcome(StepState state, String detail) {
            this(state, detail, null);
        }

        static StepOutcome done(String detail) {
            return new StepOutcome(StepState.DONE, detail);
        }

        static StepOutcome done(String detail, StepResult result) {
            return new StepOutcome(StepState.DONE, detail, result);
        }

        static StepOutcome skipped(String detail) {
            return new StepOutcome(StepState.SKIPPED, detail);
        }

        static StepOutcome failed(String detail) {
            return new StepOutcome(StepState.FAILED, detail);
        }
    }

    /** A step failed: the action fails with this message. */
    static final class StepFailed extends Exception {
        StepFailed(String message) {
            super(message);
        }
    }

    /** Somebody cancelled the action. */
    static final class Cancelled extends Exception {
        Cancelled() {
            super("cancelled");
        }
    }

    /**
     * The running step waits for something that is not there yet: the procedure stops here, the step stays RUNNING,
     * and the executor runs the procedure again after {@code recheckIn}. Thrown at every re-check, so it keeps no
     * stack trace.
     */
    static final class Waiting extends Exception {
        private final Duration recheckIn;
        private final CompletionStage<?> wakeOn;

        Waiting(Duration recheckIn) {
            this(recheckIn, null);
        }

        /** Checked again after {@code recheckIn}, or as soon as {@code wakeOn} completes when that comes first. */
        Waiting(Duration recheckIn, CompletionStage<?> wakeOn) {
            super("waiting", null, false, false);
            this.recheckIn = recheckIn;
            this.wakeOn = wakeOn;
        }

        Duration recheckIn() {
            return recheckIn;
        }

        /** What ends the wait early (a send in flight), or null. */
        CompletionStage<?> wakeOn() {
            return wakeOn;
        }

        /** The wait of two steps waiting side by side: the sooner recheck, woken by either. */
        Waiting and(Waiting other) {
            if (other == null) {
                return this;
            }
            Duration sooner = recheckIn.compareTo(other.recheckIn) <= 0 ? recheckIn : other.recheckIn;
            CompletionStage<?> wake = wakeOn == null
                    ? other.wakeOn
                    : other.wakeOn == null
                            ? wakeOn
                            : CompletableFuture.anyOf(wakeOn.toCompletableFuture(), other.wakeOn.toCompletableFuture());
            return new Waiting(sooner, wake);
        }
    }

    /**
     * Steps run side by side ({@link #together}): their outcomes once none waits any more.
     *
     * @param outcomes each step's outcome, in order; null for one still waiting
     * @param waiting  the wait of those still waiting, or null
     */
    record Together(List<StepOutcome> outcomes, Waiting waiting) {

        /** The outcomes; throws the wait while any step still waits (the procedure then runs again later). */
        List<StepOutcome> await() throws Waiting {
            if (waiting != null) {
                throw waiting;
            }
            return outcomes;
        }
    }

    /** Something a procedure computes outside its steps and keeps for its later runs. */
    interface Computation<T> {
        T get() throws Exception;
    }

    /** Called after each step is recorded; tests use it to stop a run at a chosen point. */
    interface Hook {
        void afterStep(String actionId, String stepName) throws InterruptedException;
    }

    private final ActionView action;
    private final long term;
    private final ActionStore store;
    private final Clock clock;
    private final Hook hook;
    private final Map<String, ActionStepView> previous = new HashMap<>();
    /** Steps this runner left waiting: their RUNNING row is written, a re-check does not write it again. */
    private final Set<String> waiting = new HashSet<>();
    /** How many times each step was left waiting by this runner. */
    private final Map<String, Integer> rechecks = new HashMap<>();

    private final Map<String, Object> kept = new HashMap<>();
    private String current;
    /** The row of the step now running, as last written. */
    private ActionStepView currentRow;

    private int nextSeq;
    /** The action was started by a statement that checked for cancellation: the first step need not ask again. */
    private boolean cancelChecked;

    /**
     * @param term the leadership the steps are run under: every step written is fenced by it, so a runner whose
     *             replica no longer leads stops at its next step
     */
    StepRunner(ActionView action, ActionStore store, Clock clock, Hook hook, boolean justStarted, long term) {
        this.term = term;
        this.action = action;
        this.store = store;
        this.clock = clock;
        this.hook = hook;
        this.cancelChecked = justStarted;
        for (ActionStepView s : action.steps()) {
            previous.put(s.name(), s);
            nextSeq = Math.max(nextSeq, s.seq() + 1);
        }
    }

    /** A step's outcome from an earlier run, or null. */
    ActionStepView previous(String name) {
        return previous.get(name);
    }

    /** How many times the step now running was left waiting by this runner (0 at its first run, and after a restart). */
    int rechecks() {
        return rechecks.getOrDefault(current, 0);
    }

    /**
     * A value computed by the first run of the procedure that asks for it and kept for its later runs (by this runner:
     * after a restart it is computed again).
     */
    @SuppressWarnings("unchecked")
    <T> T keep(String key, Computation<T> c) throws Exception {
        if (!kept.containsKey(key)) {
            kept.put(key, c.get());
        }
        return (T) kept.get(key);
    }

    /** Runs a step that must succeed. */
    StepOutcome step(String name, Body body) throws StepFailed, Cancelled, Waiting, InterruptedException {
        StepOutcome out = run(name, body);
        if (out.state() == StepState.FAILED) {
            endWaiting("not finished: " + name + " failed");
            throw new StepFailed(name + ": " + out.detail());
        }
        return out;
    }

    /**
     * Runs tolerant steps side by side: each runs (or is checked again) in turn, and one that waits does not keep
     * the next from running, so that, for example, every job's command goes out at once although one channel is
     * down. The caller may run more steps before {@link Together#await()}ing them.
     */
    Together together(List<String> names, java.util.function.IntFunction<Body> bodies)
            throws Cancelled, InterruptedException {
        List<StepOutcome> outcomes = new java.util.ArrayList<>();
        Waiting waiting = null;
        for (int i = 0; i < names.size(); i++) {
            try {
                outcomes.add(run(names.get(i), bodies.apply(i)));
            } catch (Waiting w) {
                outcomes.add(null);
                waiting = w.and(waiting);
            }
        }
        return new Together(java.util.Collections.unmodifiableList(outcomes), waiting);
    }

    /**
     * Records on the running step's row what it is doing while it waits (for example a send that failed and when
     * it is tried again): its detail and result, still RUNNING.
     */
    void progress(String detail, StepResult result) {
        ActionStepView r = currentRow;
        if (r == null) {
            throw new IllegalStateException("no step is running");
        }
        ActionStepView now =
                new ActionStepView(r.seq(), r.name(), StepState.RUNNING, r.startedAt(), null, detail, result);
        store.saveStep(action.id(), action.target(), now, action.requestedBy(), term);
        currentRow = now;
    }

    /** Runs a step whose failure is recorded but does not stop the action. */
    StepOutcome tolerant(String name, Body body) throws Cancelled, Waiting, InterruptedException {
        return run(name, body);
    }

    private StepOutcome run(String name, Body body) throws Cancelled, Waiting, InterruptedException {
        ActionStepView before = previous.get(name);
        if (before != null && before.state().terminal()) {
            return new StepOutcome(before.state(), before.detail(), before.result());
        }
        StepState from = before == null ? StepState.PENDING : before.state();
        if (!StepState.RUNNING.canFollow(from)) {
            throw new IllegalStateException("step " + name + " cannot run from " + from.wire());
        }
        // A re-check of a step this runner left waiting: its row says RUNNING already, and a cancellation found now
        // is recorded on it, as one found inside the step would be.
        boolean recheck = waiting.remove(name);
        if (cancelChecked) {
            cancelChecked = false;
        } else if (!recheck) {
            checkCancelled();
        }
        int seq = before != null ? before.seq() : nextSeq++;
        Instant started = before != null && before.startedAt() != null ? before.startedAt() : clock.instant();
        ActionStepView running = new ActionStepView(
                seq, name, StepState.RUNNING, started, null, before == null ? "" : "resumed after a restart");
        if (recheck) {
            try {
                checkCancelled();
            } catch (Cancelled e) {
                saveCancelled(seq, name, started);
                endWaiting("cancelled");
                throw e;
            }
        } else {
            store.saveStep(action.id(), action.target(), running, action.requestedBy(), term);
        }
        current = name;
        currentRow = recheck && before != null ? before : running;
        StepOutcome out;
        try {
            out = body.run();
        } catch (Waiting w) {
            previous.put(name, currentRow);
            waiting.add(name);
            rechecks.merge(name, 1, Integer::sum);
            throw w;
        } catch (InterruptedException | Cancelled e) {
            if (e instanceof Cancelled) {
                saveCancelled(seq, name, started);
                endWaiting("cancelled");
            }
            throw e;
        } catch (Exception e) {
            out = StepOutcome.failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (!out.state().canFollow(StepState.RUNNING)) {
            throw new IllegalStateException(
                    "step " + name + " cannot end " + out.state().wire());
        }
        ActionStepView done =
                new ActionStepView(seq, name, out.state(), started, clock.instant(), out.detail(), out.result());
        store.saveStep(action.id(), action.target(), done, action.requestedBy(), term);
        previous.put(name, done);
        // The action and its target are in the log context (the executor sets them); a failure is worth a line
        // even when the step is tolerated, as the action's own line at its end says only how it ended.
        LOG.logf(
                out.state() == StepState.FAILED ? Logger.Level.INFO : Logger.Level.DEBUG,
                "Step '%s' %s: %s",
                name,
                out.state().wire(),
                out.detail());
        hook.afterStep(action.id(), name);
        return out;
    }

    /**
     * The action ends while steps run side by side still wait: their rows say so instead of staying RUNNING.
     */
    private void endWaiting(String why) {
        for (String name : List.copyOf(waiting)) {
            ActionStepView w = previous.get(name);
            if (w != null && !w.state().terminal()) {
                ActionStepView ended = new ActionStepView(
                        w.seq(), name, StepState.FAILED, w.startedAt(), clock.instant(), why, w.result());
                store.saveStep(action.id(), action.target(), ended, action.requestedBy(), term);
                previous.put(name, ended);
            }
        }
        waiting.clear();
    }

    private void saveCancelled(int seq, String name, Instant started) {
        store.saveStep(
                action.id(),
                action.target(),
                new ActionStepView(seq, name, StepState.FAILED, started, clock.instant(), "cancelled"),
                action.requestedBy(),
                term);
    }

    private void checkCancelled() throws Cancelled {
        if (store.cancelRequested(action.id())) {
            throw new Cancelled();
        }
    }

    /** The leadership this runner runs under. */
    long term() {
        return term;
    }

    List<ActionStepView> recorded() {
        return List.copyOf(previous.values());
    }
}
