package io.lifeline.domain.job;

import java.time.Duration;

/**
 * How many jobs the model holds at most, and how long a job that never ran is kept: memory stays bounded whatever
 * senders make up (a namespace's token submitting jobs by the thousand), and a job submitted but never started does
 * not stay forever. A new job beyond a limit is not applied ({@code limit_reached}); the jobs already held go on, and
 * an ended job leaves the count (ended jobs are bounded on their own, {@link JobsConfig#maxFinishedJobs()}).
 *
 * @param maxJobs               jobs not ended, fleet-wide
 * @param maxJobsPerNamespace   jobs not ended in one namespace: one team cannot take the whole room
 * @param unstartedForgetAfter  a submitted job that never ran (no rendezvous, no progress) and has not ended is
 *                              forgotten once no event of it came for this long, in event time
 */
public record JobLimits(int maxJobs, int maxJobsPerNamespace, Duration unstartedForgetAfter) {

    public JobLimits {
        if (maxJobs < 1 || maxJobsPerNamespace < 1) {
            throw new IllegalArgumentException("maxJobs and maxJobsPerNamespace must be >= 1");
        }
        if (unstartedForgetAfter == null || unstartedForgetAfter.isNegative() || unstartedForgetAfter.isZero()) {
            throw new IllegalArgumentException("unstartedForgetAfter must be positive");
        }
    }

    /** The documented defaults (lifeline.model.limits.max-jobs and the rest; docs/configuration.md says what they rest on). */
    public static JobLimits defaults() {
        return new JobLimits(10_000, 2_000, Duration.ofDays(7));
    }
}
