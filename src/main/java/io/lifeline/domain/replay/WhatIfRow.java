package io.lifeline.domain.replay;

/**
 * One row of a what-if: a scenario's replay, or what actually happened.
 *
 * @param name                   what the row is
 * @param actual                 whether this is what happened (not a replay)
 * @param intervalSeconds        τ (the job's current interval for the actual row, when known)
 * @param intervalSource         {@code fixed}, {@code current}, {@code advice} (null for the actual row)
 * @param checkpointCostSeconds  C assumed (measured for the actual row), or null
 * @param noticePolicy           notice policy on, or null for the actual row
 * @param capacityType           capacity type of the job's pool
 * @param interruptions          interruptions replayed
 * @param ettr                   productive / (wall − waiting), or null
 * @param ettrOfWall             productive / wall, or null
 * @param modelEttr              the first-order model's ETTR at τ for this row's C, M and R, or null
 * @param productiveHours        productive time
 * @param checkpointHours        time blocked saving
 * @param lostReworkHours        work thrown away
 * @param recoveryHours          time recovering
 * @param lostGpuHours           (lost rework + recovery) × GPUs
 * @param pricePerGpuHour        price of the capacity type in the pool, or null when none is configured
 * @param lostCost               lostGpuHours × price, or null
 */
public record WhatIfRow(
        String name,
        boolean actual,
        Double intervalSeconds,
        String intervalSource,
        Double checkpointCostSeconds,
        Boolean noticePolicy,
        String capacityType,
        int interruptions,
        Double ettr,
        Double ettrOfWall,
        Double modelEttr,
        double productiveHours,
        double checkpointHours,
        double lostReworkHours,
        double recoveryHours,
        double lostGpuHours,
        Double pricePerGpuHour,
        Double lostCost) {}
