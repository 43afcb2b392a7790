package io.lifeline.codec;

/** An event that cannot be accepted; the message says which field and why, and is returned to the sender. */
public class InvalidEventException extends RuntimeException {

    public InvalidEventException(String reason) {
        super(reason, null, false, false);
    }
}
