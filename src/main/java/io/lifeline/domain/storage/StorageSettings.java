package io.lifeline.domain.storage;

import java.time.Duration;
import java.util.List;

/**
 * How storage targets are learned and bounded.
 *
 * @param retentionCheckpoints  checkpoints of each job a target is taken to keep (the newest ones): the events do not
 *                              say which were deleted, so a job's older checkpoints are counted as rotated out
 *                              ({@code lifeline.storage.retention-checkpoints})
 * @param roots                 storage roots the operator names (mount points, {@code s3://bucket/prefix}): a location
 *                              at or below one belongs to it ({@code lifeline.storage.roots}, then the shared file
 *                              systems of {@code lifeline.checkpoints.shared-paths})
 * @param samples               recent saves each job keeps per target for bandwidth, size and write rate
 * @param maxTargets            targets held at most (the one written to least recently is forgotten first)
 * @param maxJobsPerTarget      jobs held per target at most (likewise)
 * @param idleAfter             a job that has not saved for this long (nor for three of its own intervals) is taken as
 *                              no longer writing: it adds nothing to the write rate
 */
public record StorageSettings(
        int retentionCheckpoints,
        List<String> roots,
        int samples,
        int maxTargets,
        int maxJobsPerTarget,
        Duration idleAfter) {

    public StorageSettings {
        if (retentionCheckpoints < 1) {
            throw new IllegalArgumentException("retentionCheckpoints must be at least 1, got " + retentionCheckpoints);
        }
        if (samples < 2) {
            throw new IllegalArgumentException("samples must be at least 2, got " + samples);
        }
        if (maxTargets < 1 || maxJobsPerTarget < 1) {
            throw new IllegalArgumentException("maxTargets and maxJobsPerTarget must be at least 1");
        }
        roots = roots == null ? List.of() : List.copyOf(roots);
        idleAfter = idleAfter == null ? Duration.ofHours(6) : idleAfter;
    }

    /** Three checkpoints kept per job, no named roots, 16 samples, 1,000 targets of 1,000 jobs, idle after 6 h. */
    public static StorageSettings defaults() {
        return new StorageSettings(3, List.of(), 16, 1000, 1000, Duration.ofHours(6));
    }

    /** These settings with other named roots. */
    public StorageSettings withRoots(List<String> named) {
        return new StorageSettings(retentionCheckpoints, named, samples, maxTargets, maxJobsPerTarget, idleAfter);
    }
}
