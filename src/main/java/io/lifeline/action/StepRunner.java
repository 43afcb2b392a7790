package io.lifeline.action;

import io.lifeline.domain.action.StepState;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an action's steps, each known by its name: a step already done (or skipped) in an earlier run is not run
 * again, so an action resumed after a restart picks up where it stopped. A step found RUNNING was interrupted
 * mid-way and runs again; steps are written to be idempotent (cordon twice is a no-op, evicting a gone pod finds
 * nothing).
 */
final class StepRunner {

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

    /** Called after each step is recorded; tests use it to stop a run at a chosen point. */
    interface Hook {
        void afterStep(String actionId, String stepName) throws InterruptedException;
    }

    private final ActionView action;
    private final ActionStore store;
    private final Clock clock;
    private final Hook hook;
    private final Map<String, ActionStepView> previous = new HashMap<>();
    private int nextSeq;
    /** The action was started by a statement that checked for cancellation: the first step need not ask again. */
    private boolean cancelChecked;

    StepRunner(ActionView action, ActionStore store, Clock clock, Hook hook) {
        this(action, store, clock, hook, false);
    }

    StepRunner(ActionView action, ActionStore store, Clock clock, Hook hook, boolean justStarted) {
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

    /** Runs a step that must succeed. */
    StepOutcome step(String name, Body body) throws StepFailed, Cancelled, InterruptedException, SQLException {
        StepOutcome out = run(name, body);
        if (out.state() == StepState.FAILED) {
            throw new StepFailed(name + ": " + out.detail());
        }
        return out;
    }

    /** Runs a step whose failure is recorded but does not stop the action. */
    StepOutcome tolerant(String name, Body body) throws Cancelled, InterruptedException, SQLException {
        return run(name, body);
    }

    private StepOutcome run(String name, Body body) throws Cancelled, InterruptedException, SQLException {
        ActionStepView before = previous.get(name);
        if (before != null && before.state().terminal()) {
            return new StepOutcome(before.state(), before.detail(), before.result());
        }
        StepState from = before == null ? StepState.PENDING : before.state();
        if (!StepState.RUNNING.canFollow(from)) {
            throw new IllegalStateException("step " + name + " cannot run from " + from.wire());
        }
        if (cancelChecked) {
            cancelChecked = false;
        } else {
            checkCancelled();
        }
        int seq = before != null ? before.seq() : nextSeq++;
        Instant started = before != null && before.startedAt() != null ? before.startedAt() : clock.instant();
        store.saveStep(action.id(), action.target(), new ActionStepView(seq, name, StepState.RUNNING, started, null,
                before == null ? "" : "resumed after a restart"), action.requestedBy());
        StepOutcome out;
        try {
            out = body.run();
        } catch (InterruptedException | Cancelled e) {
            if (e instanceof Cancelled) {
                store.saveStep(action.id(), action.target(), new ActionStepView(seq, name, StepState.FAILED, started,
                        clock.instant(), "cancelled"), action.requestedBy());
            }
            throw e;
        } catch (Exception e) {
            out = StepOutcome.failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (!out.state().canFollow(StepState.RUNNING)) {
            throw new IllegalStateException("step " + name + " cannot end " + out.state().wire());
        }
        ActionStepView done = new ActionStepView(seq, name, out.state(), started, clock.instant(), out.detail(),
                out.result());
        store.saveStep(action.id(), action.target(), done, action.requestedBy());
        previous.put(name, done);
        hook.afterStep(action.id(), name);
        return out;
    }

    void checkCancelled() throws Cancelled, SQLException {
        if (store.cancelRequested(action.id())) {
            throw new Cancelled();
        }
    }

    List<ActionStepView> recorded() {
        return List.copyOf(previous.values());
    }
}
