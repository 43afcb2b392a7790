package io.lifeline.domain.job;

import java.util.List;

/**
 * The jobs model's state as plain, immutable values: what a checkpoint of the model keeps of the jobs, so that a
 * restart restores them ({@link Jobs#restore}) instead of rebuilding them from every stored event, and keeps jobs,
 * checkpoints and open incidents whose events the log no longer holds. {@link Jobs#save()} takes it; applying the same
 * events afterwards to the saved model and to one restored from it gives the same reads.
 *
 * @param jobs                 every job held, in no particular order
 * @param ended                names of the ended jobs in the order they are forgotten (oldest first)
 * @param timelineQueue        names of the jobs with timeline entries not yet handed over, in the order they will be
 * @param recordsQueue         names of the jobs with incidents or checkpoints not yet handed over, likewise
 * @param ignored              node and GPU events passed to the jobs and ignored
 * @param lostTimelineEntries  timeline entries that left memory before they were handed over
 */
public record SavedJobs(
        List<SavedJob> jobs,
        List<String> ended,
        List<String> timelineQueue,
        List<String> recordsQueue,
        long ignored,
        long lostTimelineEntries) {

    public SavedJobs {
        jobs = List.copyOf(jobs);
        ended = List.copyOf(ended);
        timelineQueue = List.copyOf(timelineQueue);
        recordsQueue = List.copyOf(recordsQueue);
    }
}
