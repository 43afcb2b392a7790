package io.lifeline.action.view;

import io.lifeline.domain.action.StepState;
import java.time.Instant;

/**
 * One step of an action (for example {@code cordon}, {@code checkpoint ns/job}, {@code evict ns/pod}).
 *
 * @param detail what happened, for people
 * @param result what later steps need of it, typed (null when nothing)
 */
public record ActionStepView(
        int seq, String name, StepState state, Instant startedAt, Instant endedAt, String detail, StepResult result) {

    /** A step that produced nothing later steps need. */
    public ActionStepView(int seq, String name, StepState state, Instant startedAt, Instant endedAt, String detail) {
        this(seq, name, state, startedAt, endedAt, detail, null);
    }
}
