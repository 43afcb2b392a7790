package io.lifeline.action;

/** A request the planner refuses, naming the field at fault (for example {@code params.workers}) and why. */
public class ActionRejectedException extends RuntimeException {

    private final String field;

    public ActionRejectedException(String field, String reason) {
        super(reason);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
