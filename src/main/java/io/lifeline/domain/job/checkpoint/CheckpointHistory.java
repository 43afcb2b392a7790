package io.lifeline.domain.job.checkpoint;

import java.util.List;

/**
 * A job's checkpoints with their lineage.
 *
 * @param job            job name
 * @param verifies       whether the job verifies checkpoints
 * @param newestGood     id of the newest good checkpoint, or null
 * @param lineageParent  the checkpoint the current run restored from, or null
 * @param checkpoints    recent checkpoints, oldest first (bounded)
 * @param restores       recent restores, oldest first (bounded)
 */
public record CheckpointHistory(
        String job,
        boolean verifies,
        String newestGood,
        String lineageParent,
        List<CheckpointView> checkpoints,
        List<RestoreView> restores) {}
