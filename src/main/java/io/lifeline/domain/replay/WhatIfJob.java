package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Instant;
import java.util.List;

/**
 * What a what-if knows of a job: its window, its size, its measured checkpoint cost and recovery, its interruptions
 * and what actually happened.
 *
 * @param job                     job name
 * @param start                   when the job first ran (its first rendezvous; else its submission): the replay
 *                                 trains from here, so time queued before it is not counted as training
 * @param end                     its end, or now for a job still running
 * @param gpus                    GPUs it held while training
 * @param nodes                   nodes it ran on
 * @param pool                    its pool, or null
 * @param capacity                its capacity type, or null
 * @param currentIntervalSeconds  its checkpoint interval (configured, else observed), or null
 * @param checkpointCostSeconds   C measured (median blocking save), or null
 * @param recoverySeconds         mean recovery per interruption measured (0 without one)
 * @param advisedIntervalSeconds  the interval advice for the job, or null
 * @param interruptions           its interruptions in time order
 * @param actual                  its goodput as it happened
 */
public record WhatIfJob(
        String job,
        Instant start,
        Instant end,
        int gpus,
        int nodes,
        String pool,
        CapacityType capacity,
        Double currentIntervalSeconds,
        Double checkpointCostSeconds,
        double recoverySeconds,
        Double advisedIntervalSeconds,
        List<ReplayInterruption> interruptions,
        GoodputView actual) {

    public WhatIfJob {
        interruptions = List.copyOf(interruptions);
    }

    /** Wall-clock seconds of the window. */
    public double windowSeconds() {
        return Math.max(0, end.toEpochMilli() - start.toEpochMilli()) / 1000.0;
    }
}
