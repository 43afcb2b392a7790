package io.lifeline.domain.job;

import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What memory holds of one timeline page: up to {@code limit + 1} entries after the cursor from the job's ring, and
 * where the ring starts. Entries with a sequence below {@link #storedBelowSeq()} left the ring and are read from the
 * stored history; {@link #page(List)} merges them in.
 *
 * @param job             job name
 * @param incarnation     the job's incarnation (see {@link JobTimelineEntry})
 * @param cursor          position after which the page starts
 * @param limit           most entries per page
 * @param held            entries from memory in range and after the cursor, in {@link TimelineCursor#ORDER}, at most
 *                        {@code limit + 1}
 * @param storedBelowSeq  entries with a lower sequence are no longer in memory; 1 when memory holds them all
 * @param needsStored     whether stored entries could be on this page: some left the ring, and the latest of them is
 *                        not before the cursor and the range; false lets the page be answered from memory alone
 * @param incidents       incidents that overlap the page's time range
 */
public record TimelineSlice(
        String job,
        long incarnation,
        TimelineCursor cursor,
        int limit,
        List<TimelineEntry> held,
        long storedBelowSeq,
        boolean needsStored,
        List<IncidentView> incidents) {

    /**
     * The page: memory's entries merged with {@code stored} ones (those older than the ring, in range and after the
     * cursor, in order; more than {@code limit} are ignored), the first {@code limit} of them, and a cursor when more
     * follow.
     */
    public TimelinePage page(List<TimelineEntry> stored) {
        List<TimelineEntry> all = new ArrayList<>(held.size() + stored.size());
        all.addAll(stored);
        all.addAll(held);
        all.sort(TimelineCursor.ORDER);
        List<TimelineEntry> page = all.size() > limit ? all.subList(0, limit) : all;
        String next = all.size() > limit
                ? TimelineCursor.after(page.get(page.size() - 1)).toString()
                : null;
        return new TimelinePage(job, List.copyOf(page), incidents, next);
    }

    /** Whether {@code e} is in the time range {@code from <= time < to} (null bounds are open). */
    static boolean inRange(TimelineEntry e, Instant from, Instant to) {
        return (from == null || !e.time().isBefore(from))
                && (to == null || e.time().isBefore(to));
    }
}
