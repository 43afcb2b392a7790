package io.lifeline.action;

import io.lifeline.eventlog.StoreUnavailableException;

/** The action store cannot be reached right now (HTTP 503); nothing was accepted. */
public class ActionsUnavailableException extends StoreUnavailableException {

    public ActionsUnavailableException(String message, Throwable cause) {
        super(message, "", cause);
    }
}
