package io.lifeline.action;

import io.lifeline.action.StepRunner.StepOutcome;
import io.lifeline.action.view.StepResult;
import io.lifeline.domain.action.StepState;

/** Reads a stored step the way the executor does when it resumes an action (for tests outside this package). */
public final class ActionStepReading {

    private ActionStepReading() {}

    /** The checkpoint baseline of a done request step, from its stored detail and result columns. */
    public static long baselineOf(String detail, String resultJson) {
        return ActionProcedures.baseline(new StepOutcome(StepState.DONE, detail, StepResult.fromJson(resultJson)));
    }
}
