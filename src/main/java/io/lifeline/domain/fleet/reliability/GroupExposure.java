package io.lifeline.domain.fleet.reliability;

import java.util.Arrays;

/**
 * The time in service and the interruptions, by cause, of the nodes sharing one {@link GroupKey} within a window.
 *
 * @param key         the facts they share
 * @param nodeMillis  milliseconds in service
 * @param counts      interruptions by {@link InterruptionCause#ordinal()}
 */
public record GroupExposure(GroupKey key, long nodeMillis, long[] counts) {

    public GroupExposure {
        if (counts.length != InterruptionCause.values().length) {
            throw new IllegalArgumentException("one count per cause");
        }
        counts = counts.clone();
    }

    /** Interruptions of {@code cause}, or of every cause when null. */
    public long count(InterruptionCause cause) {
        return cause == null ? Arrays.stream(counts).sum() : counts[cause.ordinal()];
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupExposure g
                && g.key.equals(key)
                && g.nodeMillis == nodeMillis
                && Arrays.equals(g.counts, counts);
    }

    @Override
    public int hashCode() {
        return key.hashCode() * 31 + Long.hashCode(nodeMillis) * 17 + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "GroupExposure[" + key + ", " + nodeMillis + " ms, " + Arrays.toString(counts) + "]";
    }
}
