package io.lifeline.domain.action;

import java.util.EnumSet;
import java.util.Set;

/**
 * Life of an action. PENDING (accepted, waiting for the executor or its target's lock) → RUNNING → SUCCEEDED or
 * FAILED; PENDING or RUNNING → CANCELLED when someone cancels it. Terminal states never change again.
 */
public enum ActionState {
    PENDING,
    RUNNING,
    SUCCEEDED,
    FAILED,
    CANCELLED;

    public boolean terminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    /** The states this one may be entered from; the one place transitions are checked. */
    public Set<ActionState> predecessors() {
        switch (this) {
            case PENDING:
                return EnumSet.noneOf(ActionState.class);
            case RUNNING:
                return EnumSet.of(PENDING);
            default:
                return EnumSet.of(PENDING, RUNNING);
        }
    }

    public boolean canFollow(ActionState from) {
        return predecessors().contains(from);
    }

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
