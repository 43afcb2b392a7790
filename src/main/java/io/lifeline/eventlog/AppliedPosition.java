package io.lifeline.eventlog;

import java.util.Arrays;

/**
 * How far into the stored event log (by {@code event_log.seq}) the model has applied events: every event up to and
 * including {@link #cursor()}, and the events {@link #ahead()} beyond it. A model checkpoint records it, so that a start
 * from the checkpoint reads back exactly the events after it ({@link EventLogTail#catchUp} from the cursor; the model
 * skips the ahead ones).
 */
public interface AppliedPosition {

    /** The position of a model that has applied nothing. */
    AppliedPosition START = of(0);

    /** Every event with a seq up to and including this one has been applied. */
    long cursor();

    /** Events beyond the cursor that have been applied too, in ascending order (a copy). */
    long[] ahead();

    /** A position: {@code cursor} and the seqs applied beyond it (those at or below the cursor are dropped). */
    static AppliedPosition of(long cursor, long... ahead) {
        long[] beyond =
                Arrays.stream(ahead).filter(s -> s > cursor).sorted().distinct().toArray();
        return new Of(cursor, beyond);
    }

    /** Whether the event with this seq has been applied. */
    default boolean covers(long seq) {
        return seq <= cursor() || Arrays.binarySearch(ahead(), seq) >= 0;
    }

    /** The position after also applying, in seq order, every event up to {@code seq} that is not already applied. */
    default AppliedPosition through(long seq) {
        return seq <= cursor() ? this : of(seq, ahead());
    }

    /** The plain value behind {@link #of}. */
    record Of(long cursor, long[] seqs) implements AppliedPosition {

        @Override
        public long[] ahead() {
            return seqs.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Of p && p.cursor == cursor && Arrays.equals(p.seqs, seqs);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(cursor) * 31 + Arrays.hashCode(seqs);
        }

        @Override
        public String toString() {
            return "seq " + cursor + (seqs.length == 0 ? "" : " and " + Arrays.toString(seqs));
        }
    }
}
