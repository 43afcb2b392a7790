package io.lifeline.domain.job.goodput;

import java.util.EnumMap;
import java.util.Map;

/**
 * Where a moment of a job's wall-clock time goes. Every millisecond since submission is in exactly one
 * bucket, so the buckets add up to wall time.
 *
 * <p>{@link #LOST_REWORK} is never an activity: it is productive time reclassified when an interruption
 * throws away the progress made since the last good checkpoint. {@link #STARTUP} extends the design's
 * list: the time between admission and the first progress of a job that has not run yet holds GPUs
 * without training, yet it is neither waiting nor the recovery of an interruption.
 */
public enum Bucket {
    /** Training progress that survived. */
    PRODUCTIVE,
    /** Trainers blocked saving a checkpoint. */
    CHECKPOINT,
    /** Progress made after the last good checkpoint and thrown away by an interruption. */
    LOST_REWORK,
    /**
     * Hung: from the last progress of a job whose workers stayed alive until its workers are restarted (or training
     * moves again). Before the recovery phases, since a hang incident moves on to them.
     */
    HANG,
    /** Recovery: from the interruption until the runtime starts restarting. */
    RECOVERY_DETECTION,
    /** Recovery: restarting workers and re-forming the group (rendezvous), including re-admission. */
    RECOVERY_RESTART,
    /** Recovery: loading the checkpoint until the first progress. */
    RECOVERY_LOAD,
    /** Pauses for planned membership changes that lost no work. */
    RESCALE,
    /** Admitted but not yet training for the first time (pods starting, first rendezvous, first load). */
    STARTUP,
    /** Queued, suspended or preempted: no GPUs held. */
    WAITING;

    /** Whether this bucket is one of the recovery phases. */
    public boolean isRecovery() {
        return this == RECOVERY_DETECTION || this == RECOVERY_RESTART || this == RECOVERY_LOAD;
    }

    /** The non-zero entries of an array indexed by bucket ordinal, by bucket: how saved states hold such arrays. */
    public static Map<Bucket, Long> nonZero(long[] byOrdinal) {
        Map<Bucket, Long> out = new EnumMap<>(Bucket.class);
        for (Bucket b : values()) {
            if (byOrdinal[b.ordinal()] != 0) {
                out.put(b, byOrdinal[b.ordinal()]);
            }
        }
        return out;
    }

    /** Puts the entries of {@code byBucket} into an array indexed by bucket ordinal (the inverse of {@link #nonZero}). */
    public static void fill(long[] byOrdinal, Map<Bucket, Long> byBucket) {
        byBucket.forEach((b, v) -> byOrdinal[b.ordinal()] = v);
    }
}
