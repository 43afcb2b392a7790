package io.lifeline.ui;

import io.lifeline.domain.job.JobState;

/**
 * The filters of the jobs grid; null or blank fields match everything.
 *
 * @param search         part of the job name, any case
 * @param state          only this state
 * @param namespace      only this namespace
 * @param breachedOnly   only jobs past their checkpoint-freshness objective
 * @param incidentOnly   only jobs with an open incident
 */
public record JobsQuery(String search, JobState state, String namespace, boolean breachedOnly, boolean incidentOnly) {

    public static JobsQuery all() {
        return new JobsQuery(null, null, null, false, false);
    }
}
