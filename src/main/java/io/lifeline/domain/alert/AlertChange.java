package io.lifeline.domain.alert;

/**
 * A change an evaluation made to one alert. {@code from == alert.state()} only for a firing alert whose silences
 * ended ({@link #unsilenced()}): it must be notified again.
 *
 * @param alert  the alert after the change
 * @param from   its state before
 */
public record AlertChange(Alert alert, AlertState from) {

    public AlertState to() {
        return alert.state();
    }

    /** A firing alert that was silenced and is not any more. */
    public boolean unsilenced() {
        return from == alert.state();
    }

    /** Whether receivers hear of it: it started firing, resolved or came out of a silence, and is not silenced. */
    public boolean notifiable() {
        return !alert.silenced() && (to() == AlertState.FIRING || to() == AlertState.RESOLVED);
    }
}
