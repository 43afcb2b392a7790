package io.lifeline.metrics;

import io.lifeline.metrics.SeriesSnapshot.JobSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which jobs get series of their own ({@code lifeline_job_*}): at most so many per namespace and so many in all, so
 * that {@code /metrics} does not grow with the jobs senders make up, nor one namespace's jobs crowd out the others'.
 * Jobs that have not ended come first (what dashboards and alert rules watch), then ended ones, each in name order so
 * that the same jobs keep their series from one refresh to the next. The fleet-wide series ({@code lifeline_jobs},
 * {@code lifeline_open_incidents}) count every job.
 */
final class JobSeriesBudget {

    /**
     * The jobs chosen and how many were left out.
     *
     * @param chosen   the jobs whose series are published, in the snapshot's order within each group
     * @param omitted  the jobs left out
     */
    record Choice(List<JobSample> chosen, int omitted) {}

    private JobSeriesBudget() {}

    static Choice choose(List<JobSample> jobs, int perNamespace, int total) {
        List<JobSample> chosen = new ArrayList<>(Math.min(jobs.size(), total));
        Map<String, Integer> byNamespace = new HashMap<>();
        for (boolean ended : new boolean[] {false, true}) {
            for (JobSample j : jobs) {
                if (j.state().isTerminal() != ended || chosen.size() >= total) {
                    continue;
                }
                String ns = j.namespace() == null ? "" : j.namespace();
                int n = byNamespace.getOrDefault(ns, 0);
                if (n < perNamespace) {
                    byNamespace.put(ns, n + 1);
                    chosen.add(j);
                }
            }
        }
        return new Choice(chosen, jobs.size() - chosen.size());
    }
}
