package io.lifeline.connector.outbound.cloud;

import io.lifeline.connector.LifecycleAction;

/** Completes Auto Scaling lifecycle actions (the AWS API's {@code CompleteLifecycleAction}). */
public interface LifecycleActions {

    /** How a completion ended. */
    sealed interface Outcome {
        /** AWS took it: the instance proceeds to termination. */
        record Completed() implements Outcome {}

        /** AWS answered with an error (a 4xx is not retried: a spent token stays spent). */
        record Refused(int status, String code, String message) implements Outcome {}

        /** No answer (connection, timeout, a 5xx): worth trying again. */
        record Unreachable(String reason) implements Outcome {}
    }

    /** Completes {@code action} with {@code CONTINUE}. */
    Outcome complete(LifecycleAction action);
}
