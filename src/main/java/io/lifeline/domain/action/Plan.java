package io.lifeline.domain.action;

import java.time.Instant;
import java.util.List;

/**
 * What the planner decided an accepted request will do.
 *
 * @param request      the request, parameters normalised (defaults filled in)
 * @param deadline     when the action must be done by
 * @param impact       what it costs (the dry-run answer)
 * @param jobs         the jobs it will touch, in order
 * @param checkpointSeconds estimated time one checkpoint of the slowest affected job takes
 */
public record Plan(ActionRequest request, Instant deadline, Impact impact, List<String> jobs, long checkpointSeconds) {

    public Plan {
        jobs = List.copyOf(jobs);
    }
}
