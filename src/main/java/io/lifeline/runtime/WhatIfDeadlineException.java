package io.lifeline.runtime;

/** A what-if ran past {@code lifeline.whatif.deadline} and was stopped (answered 422: ask for less). */
public class WhatIfDeadlineException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WhatIfDeadlineException(long deadlineMillis) {
        super("the what-if did not finish within " + deadlineMillis + " ms (lifeline.whatif.deadline) and was stopped: "
                + "ask for fewer scenarios or longer intervals");
    }
}
