package io.lifeline.domain.action;

import java.util.List;

/**
 * What an action would cost, computed by the planner for a dry run and kept with the action.
 *
 * @param gpuHoursAtRisk           work since each affected job's newest complete checkpoint, in GPU-hours
 * @param newestCheckpointAgeSeconds age of the oldest "newest checkpoint" among affected jobs; null if one has none
 * @param ranksAffected            trainer ranks (workers) that would stop or move
 * @param jobs                     affected jobs ({@code namespace/name})
 * @param nodes                    affected nodes
 * @param deadlineAllowsCheckpoint whether the deadline leaves time to save a checkpoint first
 * @param warnings                 what the requester should know (for example: no checkpoint ever completed)
 */
public record Impact(double gpuHoursAtRisk, Long newestCheckpointAgeSeconds, int ranksAffected, List<String> jobs,
                     List<String> nodes, boolean deadlineAllowsCheckpoint, List<String> warnings) {

    public Impact {
        jobs = List.copyOf(jobs);
        nodes = List.copyOf(nodes);
        warnings = List.copyOf(warnings);
    }
}
