package io.lifeline.eventlog;

/** Lifeline cannot take events right now (store unavailable and buffer full, or shutting down); retry later. */
public class RetryLaterException extends RuntimeException {

    public RetryLaterException(String reason) {
        super(reason, null, false, false);
    }
}
