package io.lifeline.store;

/** A store (PostgreSQL) could not be asked or written just now; the request may be repeated later (HTTP 503). */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String what, Throwable cause) {
        super(what + " is unavailable; retry later", cause);
    }
}
