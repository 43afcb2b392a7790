package io.lifeline.eventlog;

/** A store (PostgreSQL) could not be asked or written just now; the request may be repeated later (HTTP 503). */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String what, Throwable cause) {
        this(what, " is unavailable; retry later", cause);
    }

    /** For subclasses that say it in their own words. */
    protected StoreUnavailableException(String message, String suffix, Throwable cause) {
        super(message + suffix, cause);
    }
}
