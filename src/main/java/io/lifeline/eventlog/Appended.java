package io.lifeline.eventlog;

import io.lifeline.codec.Refusal;
import java.util.List;

/**
 * What the event log made of one submission.
 *
 * @param seqs     per event, its {@code seq} in the log if this submission stored it; 0 for an event stored before
 *                 (same source and id) or refused
 * @param refused  the events the database refused on their content (not stored), by index in the submission, each
 *                 with the database's reason and SQLSTATE
 */
public record Appended(long[] seqs, List<Refusal> refused) {

    public Appended {
        refused = List.copyOf(refused);
    }

    /** Whether event {@code i} was new to the log. */
    public boolean fresh(int i) {
        return seqs[i] > 0;
    }
}
