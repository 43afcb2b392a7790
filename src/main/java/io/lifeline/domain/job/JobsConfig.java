package io.lifeline.domain.job;

import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import java.time.Duration;

/**
 * Tunables of the jobs model, with documented defaults ({@link #defaults()}).
 *
 * @param freshnessObjectiveFactor   freshness objective = factor × the job's checkpoint interval (default 2)
 * @param defaultFreshnessObjective  objective for jobs without a checkpoint interval (default 1 h)
 * @param warningWindow              a warning without deadline (not-ready node, GPU fault) that has not stopped
 *                                   training after this long is closed as averted (default 30 min)
 * @param noticeGrace                a notice whose deadline passed this long ago without stopping training is
 *                                   closed as averted (default 5 min)
 * @param maxCheckpointsPerJob       checkpoints kept per job (default 100)
 * @param maxRestoresPerJob          restores kept per job (default 100)
 * @param maxIncidentsPerJob         closed incidents kept per job (default 100)
 * @param maxTimelineEntries         timeline entries kept per job (default 500)
 * @param maxRounds                  rendezvous rounds kept per job (default 64)
 * @param maxWorldSizePoints         world-size points kept per job (default 256)
 * @param maxRecentEventIds          event identities remembered per job for de-duplication (default 512)
 * @param maxRefusals                refused transitions kept per job (default 20)
 * @param maxFinishedJobs            ended jobs kept before the oldest is forgotten (default 5000)
 * @param adviceSamples              recent checkpoints the advice measures cost and interval on (default 20)
 * @param strayJobsForgetAfter       a job never submitted (known only from trainer or scheduler events, for example
 *                                   late ones sent after the job was forgotten) that has not ended is forgotten once
 *                                   no event of it came for this long, in event time (default 24 h)
 * @param checkpointStorage          how a checkpoint's location is classified (shared file systems; default none)
 */
public record JobsConfig(
        double freshnessObjectiveFactor,
        Duration defaultFreshnessObjective,
        Duration warningWindow,
        Duration noticeGrace,
        int maxCheckpointsPerJob,
        int maxRestoresPerJob,
        int maxIncidentsPerJob,
        int maxTimelineEntries,
        int maxRounds,
        int maxWorldSizePoints,
        int maxRecentEventIds,
        int maxRefusals,
        int maxFinishedJobs,
        int adviceSamples,
        Duration strayJobsForgetAfter,
        CheckpointStorage checkpointStorage) {

    private static final Duration DEFAULT_STRAY_FORGET = Duration.ofHours(24);

    public JobsConfig {
        if (strayJobsForgetAfter == null || strayJobsForgetAfter.isNegative() || strayJobsForgetAfter.isZero()) {
            throw new IllegalArgumentException("strayJobsForgetAfter must be positive");
        }
        checkpointStorage = checkpointStorage == null ? CheckpointStorage.defaults() : checkpointStorage;
    }

    /** A configuration with the default checkpoint storage (no shared file systems). */
    public JobsConfig(
            double freshnessObjectiveFactor,
            Duration defaultFreshnessObjective,
            Duration warningWindow,
            Duration noticeGrace,
            int maxCheckpointsPerJob,
            int maxRestoresPerJob,
            int maxIncidentsPerJob,
            int maxTimelineEntries,
            int maxRounds,
            int maxWorldSizePoints,
            int maxRecentEventIds,
            int maxRefusals,
            int maxFinishedJobs,
            int adviceSamples,
            Duration strayJobsForgetAfter) {
        this(
                freshnessObjectiveFactor,
                defaultFreshnessObjective,
                warningWindow,
                noticeGrace,
                maxCheckpointsPerJob,
                maxRestoresPerJob,
                maxIncidentsPerJob,
                maxTimelineEntries,
                maxRounds,
                maxWorldSizePoints,
                maxRecentEventIds,
                maxRefusals,
                maxFinishedJobs,
                adviceSamples,
                strayJobsForgetAfter,
                null);
    }

    /** A configuration with the default {@code strayJobsForgetAfter}. */
    public JobsConfig(
            double freshnessObjectiveFactor,
            Duration defaultFreshnessObjective,
            Duration warningWindow,
            Duration noticeGrace,
            int maxCheckpointsPerJob,
            int maxRestoresPerJob,
            int maxIncidentsPerJob,
            int maxTimelineEntries,
            int maxRounds,
            int maxWorldSizePoints,
            int maxRecentEventIds,
            int maxRefusals,
            int maxFinishedJobs,
            int adviceSamples) {
        this(
                freshnessObjectiveFactor,
                defaultFreshnessObjective,
                warningWindow,
                noticeGrace,
                maxCheckpointsPerJob,
                maxRestoresPerJob,
                maxIncidentsPerJob,
                maxTimelineEntries,
                maxRounds,
                maxWorldSizePoints,
                maxRecentEventIds,
                maxRefusals,
                maxFinishedJobs,
                adviceSamples,
                DEFAULT_STRAY_FORGET,
                null);
    }

    public static JobsConfig defaults() {
        return new JobsConfig(
                2.0,
                Duration.ofHours(1),
                Duration.ofMinutes(30),
                Duration.ofMinutes(5),
                100,
                100,
                100,
                500,
                64,
                256,
                512,
                20,
                5000,
                20);
    }

    /** The same configuration forgetting stray jobs after {@code after} of silence. */
    public JobsConfig withStrayJobsForgetAfter(Duration after) {
        return new JobsConfig(
                freshnessObjectiveFactor,
                defaultFreshnessObjective,
                warningWindow,
                noticeGrace,
                maxCheckpointsPerJob,
                maxRestoresPerJob,
                maxIncidentsPerJob,
                maxTimelineEntries,
                maxRounds,
                maxWorldSizePoints,
                maxRecentEventIds,
                maxRefusals,
                maxFinishedJobs,
                adviceSamples,
                after,
                checkpointStorage);
    }

    /** The same configuration keeping at most {@code n} ended jobs. */
    public JobsConfig withMaxFinishedJobs(int n) {
        return new JobsConfig(
                freshnessObjectiveFactor,
                defaultFreshnessObjective,
                warningWindow,
                noticeGrace,
                maxCheckpointsPerJob,
                maxRestoresPerJob,
                maxIncidentsPerJob,
                maxTimelineEntries,
                maxRounds,
                maxWorldSizePoints,
                maxRecentEventIds,
                maxRefusals,
                n,
                adviceSamples,
                strayJobsForgetAfter,
                checkpointStorage);
    }

    /** The same configuration classifying checkpoint locations with {@code storage}. */
    public JobsConfig withCheckpointStorage(CheckpointStorage storage) {
        return new JobsConfig(
                freshnessObjectiveFactor,
                defaultFreshnessObjective,
                warningWindow,
                noticeGrace,
                maxCheckpointsPerJob,
                maxRestoresPerJob,
                maxIncidentsPerJob,
                maxTimelineEntries,
                maxRounds,
                maxWorldSizePoints,
                maxRecentEventIds,
                maxRefusals,
                maxFinishedJobs,
                adviceSamples,
                strayJobsForgetAfter,
                storage);
    }
}
