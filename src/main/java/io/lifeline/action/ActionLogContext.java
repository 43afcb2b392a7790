package io.lifeline.action;

import io.lifeline.action.view.ActionView;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.platform.LogContext;

/** What the log lines of an action, or of a decision to take one, are about: its target (a job or a node) and its id. */
public final class ActionLogContext {

    private ActionLogContext() {}

    /**
     * The whole log context of work on {@code target} by an action of this kind ({@code id} null before there is
     * one): for the top of a task on a pooled thread, whatever that thread had before.
     */
    public static LogContext of(ActionKind kind, String target, String id) {
        boolean node = kind.targetKind() == ActionKind.TargetKind.NODE;
        return LogContext.of(node ? null : target, node ? target : null, id);
    }

    /** The whole log context of this action's work. */
    public static LogContext of(ActionView a) {
        return of(a.kind(), a.target(), a.id());
    }
}
