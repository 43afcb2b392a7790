package io.lifeline.domain.action;

/**
 * Life of one step of an action: PENDING → RUNNING → DONE, FAILED or SKIPPED (nothing to do). A step found RUNNING
 * after a restart runs again (RUNNING → RUNNING); a finished step is never run again. {@link #canFollow} is the one
 * place where these transitions are checked.
 */
public enum StepState {
    /** Not started. Follows nothing. */
    PENDING,
    /** Running. Follows PENDING, and RUNNING (resumed after a restart). */
    RUNNING,
    /** Done. Follows RUNNING. */
    DONE,
    /** Failed. Follows RUNNING. */
    FAILED,
    /** Nothing to do. Follows RUNNING. */
    SKIPPED;

    public boolean terminal() {
        return this == DONE || this == FAILED || this == SKIPPED;
    }

    /** Whether a step may move from {@code from} to this state. */
    public boolean canFollow(StepState from) {
        return switch (this) {
            case PENDING -> false;
            case RUNNING -> from == PENDING || from == RUNNING;
            case DONE, FAILED, SKIPPED -> from == RUNNING;
        };
    }

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
