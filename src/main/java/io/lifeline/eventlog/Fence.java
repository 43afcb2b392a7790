package io.lifeline.eventlog;

/**
 * The condition the action store puts on every write a leader makes: that the term it was given is still the current
 * one and its lease has not expired. A write that fails it throws {@link FencedException}.
 */
public final class Fence {

    /** SQL that is true only while {@code ?} (the term) is the current, unexpired term. */
    public static final String CONDITION =
            "EXISTS (SELECT 1 FROM leader_term WHERE name = 'lifeline' AND term = ?" + " AND expires_at > now())";

    private Fence() {}

    /** A write stamped with a term that no longer leads. */
    public static final class FencedException extends RuntimeException {
        public FencedException(long term) {
            super("term " + term + " no longer leads: another replica took over");
        }
    }
}
