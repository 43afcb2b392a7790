package io.lifeline.domain.action;

/** Life of one step of an action: PENDING → RUNNING → DONE, FAILED or SKIPPED (nothing to do). */
public enum StepState {
    PENDING,
    RUNNING,
    DONE,
    FAILED,
    SKIPPED;

    public boolean terminal() {
        return this == DONE || this == FAILED || this == SKIPPED;
    }

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
