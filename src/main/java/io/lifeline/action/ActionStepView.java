package io.lifeline.action;

import io.lifeline.domain.action.StepState;
import java.time.Instant;

/** One step of an action (for example {@code cordon}, {@code checkpoint ns/job}, {@code evict ns/pod}). */
public record ActionStepView(int seq, String name, StepState state, Instant startedAt, Instant endedAt, String detail) {
}
