package io.lifeline.domain.job;

/**
 * A timeline entry with the job it belongs to, as handed over for storage by {@link Jobs#drainTimeline()}.
 *
 * @param job          job name
 * @param incarnation  which run under that name: the epoch milliseconds of the first event the model saw of it (a job
 *                     submitted again after it ended starts a new incarnation, whose {@code seq} starts again at 1)
 * @param entry        the entry; {@code (job, incarnation, entry.seq())} identifies it
 */
public record JobTimelineEntry(String job, long incarnation, TimelineEntry entry) {}
