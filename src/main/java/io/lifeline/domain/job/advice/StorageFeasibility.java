package io.lifeline.domain.job.advice;

/**
 * Whether a checkpoint interval fits the write bandwidth its storage target has shown, with every job writing there.
 *
 * @param target                 the storage target
 * @param bandwidthBytesPerSecond  the bandwidth the target has shown: median of its recent saves (bytes / save seconds)
 * @param bytesPerCheckpoint     the job's checkpoint size (median of its recent ones)
 * @param intervalSeconds        the interval checked: the recommended one, else the current one
 * @param otherJobs              other jobs writing to the target
 * @param othersBytesPerSecond   what they write: Σ size / interval, at their own intervals
 * @param requiredBytesPerSecond the job's size / the interval checked, plus the others'
 * @param feasible               whether that fits the bandwidth shown
 * @param sustainableSeconds     the shortest interval at which the jobs' combined write rate fits it, the others
 *                               keeping theirs; null when the others alone use it all
 */
public record StorageFeasibility(
        String target,
        double bandwidthBytesPerSecond,
        double bytesPerCheckpoint,
        double intervalSeconds,
        int otherJobs,
        double othersBytesPerSecond,
        double requiredBytesPerSecond,
        boolean feasible,
        Double sustainableSeconds) {}
