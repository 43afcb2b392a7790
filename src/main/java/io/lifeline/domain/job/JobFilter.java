package io.lifeline.domain.job;

/**
 * Which jobs a list returns; null fields match everything.
 *
 * @param namespace  only this namespace
 * @param state      only this state
 * @param breached   only jobs whose checkpoint freshness objective is (true) or is not (false) breached
 */
public record JobFilter(String namespace, JobState state, Boolean breached) {

    /** Every job. */
    public static JobFilter all() {
        return new JobFilter(null, null, null);
    }
}
