package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * How fresh a job's newest good checkpoint is, and what an interruption now would cost. Only checkpoints that survive
 * the loss of a node count ({@code counts} says which node): a checkpoint on the local disk of the node that fails is
 * lost with it.
 *
 * @param checkpointId         newest good checkpoint that survives, or null when there is none
 * @param step                 its step, or null
 * @param completedAt          its completion time, or null
 * @param ageMillis            now − completion time; without a checkpoint, now − the time the job first
 *                             trained (null when it never trained)
 * @param stepsSince           steps trained since it (latest progress step − its step), or null
 * @param gpusHeld             GPUs the job holds now
 * @param workAtRiskGpuHours   GPUs held × age, in GPU-hours
 * @param objectiveMillis      the freshness objective (default: twice the checkpoint interval)
 * @param breached             whether the job is active and the age exceeds the objective
 * @param verifies             whether the job verifies its checkpoints (then only verified ones count)
 * @param newestCheckpointId   newest good checkpoint wherever it is stored, or null
 * @param newestDurability     where that one is stored ({@code Durability} wire name), or null
 * @param newestNotSurviving   whether that newest one would be lost with the node (node-local): the job is flagged
 * @param survivingNode        the node whose loss is counted against, or null for "any one of the job's nodes"
 * @param counts               which checkpoints these figures count, in words
 */
public record FreshnessView(
        String checkpointId,
        Long step,
        Instant completedAt,
        Long ageMillis,
        Long stepsSince,
        int gpusHeld,
        double workAtRiskGpuHours,
        long objectiveMillis,
        boolean breached,
        boolean verifies,
        String newestCheckpointId,
        String newestDurability,
        boolean newestNotSurviving,
        String survivingNode,
        String counts) {}
