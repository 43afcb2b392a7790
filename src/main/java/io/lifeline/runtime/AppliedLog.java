package io.lifeline.runtime;

import io.lifeline.eventlog.AppliedPosition;
import java.util.Arrays;
import java.util.TreeSet;

/**
 * How far the model has applied the stored event log (its {@link #position()}), so that each stored event is applied
 * exactly once although it reaches the model by two ways: the replica that stored it applies it at once (low
 * latency), and every replica reads it back when it follows the log in {@code seq} order. {@link #cursor()} is the
 * last seq the log follower handed over (everything at or below it is applied); {@link #ahead()} are the seqs above it
 * this replica applied at once. Touched only on the model thread.
 */
public final class AppliedLog {

    private long cursor;
    private final TreeSet<Long> ahead = new TreeSet<>();

    AppliedLog() {}

    /** Stands at {@code at} from now on (a model restored from a checkpoint taken there). */
    void reset(AppliedPosition at) {
        cursor = at.cursor();
        ahead.clear();
        for (long seq : at.ahead()) {
            if (seq > cursor) {
                ahead.add(seq);
            }
        }
    }

    /** Where the model stands now, as a value (a checkpoint records it). */
    public AppliedPosition position() {
        return AppliedPosition.of(cursor, ahead());
    }

    /** Whether an event this replica just stored with {@code seq} is still to be applied (the follower may be first). */
    boolean takeStored(long seq) {
        if (seq <= cursor) {
            return false;
        }
        ahead.add(seq);
        return true;
    }

    /** Whether an event the follower read at {@code seq} is still to be applied; moves the cursor to it. */
    boolean takeFollowed(long seq) {
        if (seq <= cursor) {
            return false;
        }
        cursor = seq;
        boolean applied = ahead.remove(seq);
        // Entries below the cursor can only be left by a row the follower never saw (rolled back after it was applied).
        while (!ahead.isEmpty() && ahead.first() < cursor) {
            ahead.pollFirst();
        }
        return !applied;
    }

    /**
     * The follower moved past every row up to {@code seq} without reading them back: each is one this replica stored
     * and applied already (queued before this), or one handed over before, or none at all.
     */
    void passed(long seq) {
        if (seq <= cursor) {
            return;
        }
        cursor = seq;
        ahead.headSet(seq, true).clear();
    }

    /** The last seq read back from the log; every stored event at or below it is applied. */
    public long cursor() {
        return cursor;
    }

    /** The seqs above the cursor already applied, ascending. */
    public long[] ahead() {
        return ahead.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String toString() {
        return "AppliedLog[cursor=" + cursor + ", ahead=" + Arrays.toString(ahead()) + "]";
    }
}
