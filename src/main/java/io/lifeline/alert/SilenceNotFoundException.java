package io.lifeline.alert;

/** No silence has that id (HTTP 404). */
public class SilenceNotFoundException extends RuntimeException {

    public SilenceNotFoundException(String id) {
        super("no silence with id '" + id + "'");
    }
}
