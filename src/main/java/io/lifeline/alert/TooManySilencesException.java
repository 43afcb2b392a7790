package io.lifeline.alert;

/** The limit of active and pending silences is reached (HTTP 409). */
public class TooManySilencesException extends RuntimeException {

    public TooManySilencesException(int max) {
        super("too many silences: at most " + max + " may be active or pending; expire some first");
    }
}
