package io.lifeline.store;

import java.util.List;

/**
 * What the event log made of one submission.
 *
 * @param fresh    per event, whether it was new to the log (false for an event stored before, or refused)
 * @param refused  the events the database refused on their content (not stored), by index in the submission
 */
public record Appended(boolean[] fresh, List<Refusal> refused) {

    public Appended {
        refused = List.copyOf(refused);
    }

    /**
     * One event the database would not store, with its reason.
     *
     * @param index   its position in the submission
     * @param reason  the database's reason, with its SQLSTATE
     */
    public record Refusal(int index, String reason) {
    }
}
