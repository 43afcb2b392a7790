package io.lifeline.domain.job;

import io.lifeline.domain.page.Cursor;
import java.util.Comparator;

/**
 * A position in a job's timeline: the event time in epoch milliseconds, then the entry's sequence. Its wire form, a
 * {@link Cursor} of the two, is what {@link TimelinePage#nextCursor()} carries; callers treat it as opaque. Entries are
 * ordered by the same key, so a cursor names one place whether the entry after it is held in memory or stored.
 *
 * @param millis  event time of the last entry of the previous page
 * @param seq     its sequence within the job
 */
public record TimelineCursor(long millis, long seq) {

    /** Time order as the cursor sees it: event time in milliseconds, then arrival within the job. */
    public static final Comparator<TimelineEntry> ORDER = Comparator.comparingLong(
                    (TimelineEntry e) -> e.time().toEpochMilli())
            .thenComparingLong(TimelineEntry::seq);

    /** Before every entry. */
    public static final TimelineCursor START = new TimelineCursor(Long.MIN_VALUE, Long.MIN_VALUE);

    /**
     * The cursor of a previous page, {@link #START} for null or empty; an earlier release's plain {@code millis:seq}
     * is read too.
     *
     * @throws IllegalArgumentException for a cursor that is not one a page gave out
     */
    public static TimelineCursor parse(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return START;
        }
        long[] key = Cursor.longs(cursor, 2);
        return new TimelineCursor(key[0], key[1]);
    }

    /** The cursor that continues after {@code e}. */
    public static TimelineCursor after(TimelineEntry e) {
        return new TimelineCursor(e.time().toEpochMilli(), e.seq());
    }

    /** Whether {@code e} comes after this position. */
    public boolean precedes(TimelineEntry e) {
        long t = e.time().toEpochMilli();
        return t > millis || (t == millis && e.seq() > seq);
    }

    /** The opaque wire form ({@link Cursor}), what {@link TimelinePage#nextCursor()} carries. */
    @Override
    public String toString() {
        return Cursor.of(millis, seq);
    }
}
