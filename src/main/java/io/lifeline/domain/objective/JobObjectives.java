package io.lifeline.domain.objective;

import java.util.OptionalDouble;

/**
 * What the goodput objectives say of one job, for the policies and the advice that read them: the target it is held
 * to and whether a budget it draws on is burning. Answers come from the last sample of the objectives, never from a
 * scan at the caller's pace.
 */
public interface JobObjectives {

    /** No objective: no target, never burning. */
    JobObjectives NONE = new JobObjectives() {
        @Override
        public OptionalDouble ettrTarget(String job) {
            return OptionalDouble.empty();
        }

        @Override
        public boolean burning(String job) {
            return false;
        }
    };

    /** The ETTR target (0..1) of the tightest objective whose scope holds {@code job}, or empty when none does. */
    OptionalDouble ettrTarget(String job);

    /**
     * Whether an objective whose scope holds {@code job} burns its budget: its fast or slow burn-rate condition holds,
     * or its budget is spent.
     */
    boolean burning(String job);
}
