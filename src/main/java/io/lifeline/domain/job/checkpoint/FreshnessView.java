package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * How fresh a job's newest good checkpoint is, and what an interruption now would cost.
 *
 * @param checkpointId         newest good checkpoint, or null when there is none
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
 */
public record FreshnessView(String checkpointId, Long step, Instant completedAt, Long ageMillis, Long stepsSince,
                            int gpusHeld, double workAtRiskGpuHours, long objectiveMillis, boolean breached,
                            boolean verifies) {
}
