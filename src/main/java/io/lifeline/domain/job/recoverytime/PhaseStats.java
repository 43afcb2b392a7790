package io.lifeline.domain.job.recoverytime;

import io.lifeline.domain.job.incident.RecoveryPhase;

/**
 * One phase's distribution over the interruptions of a row, each interruption counted once (a zero when the phase
 * took no time in it). Percentiles are nearest-rank; they and the maximum are null for a row without interruption.
 *
 * @param phase         which phase
 * @param p50Seconds    median seconds, or null
 * @param p90Seconds    90th percentile in seconds, or null
 * @param maxSeconds    longest, or null
 * @param totalSeconds  sum over the row's interruptions
 * @param gpuHours      GPU-hours held during the phase (nothing while waiting off the nodes)
 */
public record PhaseStats(
        RecoveryPhase phase,
        Double p50Seconds,
        Double p90Seconds,
        Double maxSeconds,
        double totalSeconds,
        double gpuHours) {}
