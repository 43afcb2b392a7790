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
 * @param noSafeCheckpoint         affected jobs with no good checkpoint that survives the action (their newest is
 *                                 node-local on the node in question, or there is none): they save to durable storage
 *                                 first
 * @param checkpointsCounted       which checkpoints the figures count, in words (those that survive the node)
 */
public record Impact(
        double gpuHoursAtRisk,
        Long newestCheckpointAgeSeconds,
        int ranksAffected,
        List<String> jobs,
        List<String> nodes,
        boolean deadlineAllowsCheckpoint,
        List<String> warnings,
        List<String> noSafeCheckpoint,
        String checkpointsCounted) {

    public Impact {
        jobs = List.copyOf(jobs);
        nodes = List.copyOf(nodes);
        warnings = List.copyOf(warnings);
        noSafeCheckpoint = noSafeCheckpoint == null ? List.of() : List.copyOf(noSafeCheckpoint);
    }

    /** An impact that names no job without a safe checkpoint. */
    public Impact(
            double gpuHoursAtRisk,
            Long newestCheckpointAgeSeconds,
            int ranksAffected,
            List<String> jobs,
            List<String> nodes,
            boolean deadlineAllowsCheckpoint,
            List<String> warnings) {
        this(
                gpuHoursAtRisk,
                newestCheckpointAgeSeconds,
                ranksAffected,
                jobs,
                nodes,
                deadlineAllowsCheckpoint,
                warnings,
                List.of(),
                null);
    }
}
