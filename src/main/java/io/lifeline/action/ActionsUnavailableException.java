package io.lifeline.action;

/** The action store cannot be reached right now (HTTP 503); nothing was accepted. */
public class ActionsUnavailableException extends RuntimeException {

    public ActionsUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
