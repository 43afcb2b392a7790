package io.lifeline.domain.job.incident;

import java.util.List;
import java.util.Map;

/**
 * A job's incident log as plain values, part of a saved job ({@link IncidentLog#save()}).
 *
 * @param closed                the closed incidents kept, oldest first
 * @param undrained             how many of the newest closed ones are not yet handed over for storage
 * @param interruptionsByCause  interruptions counted per cause (kept beyond the bound on closed incidents)
 * @param open                  the open incident, null when none
 * @param sequence              incidents opened so far (the ordinal of the newest)
 * @param interruptions         incidents that stopped training
 * @param recoveredCount        incidents that recovered
 * @param recoveredMillis       their recovery time in total
 */
public record SavedIncidents(
        List<SavedIncident> closed,
        int undrained,
        Map<IncidentCause, Integer> interruptionsByCause,
        SavedIncident open,
        int sequence,
        int interruptions,
        long recoveredCount,
        long recoveredMillis) {

    public SavedIncidents {
        closed = List.copyOf(closed);
        interruptionsByCause = Map.copyOf(interruptionsByCause);
        if (undrained < 0 || undrained > closed.size()) {
            throw new IllegalArgumentException("undrained must be within the closed incidents, got " + undrained);
        }
    }
}
