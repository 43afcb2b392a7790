package io.lifeline.action;

/** No action has this id (HTTP 404). */
public class ActionNotFoundException extends RuntimeException {

    public ActionNotFoundException(String id) {
        super("no action " + id);
    }
}
