package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.support.WireEnum;

/**
 * Where a checkpoint stands. A status only moves up this order, whatever order its events arrive in:
 * a late {@code started} never downgrades a completed checkpoint, and a corrupt verdict is final.
 */
public enum CheckpointStatus implements WireEnum {
    /** The save began. */
    STARTED,
    /** The save failed. */
    FAILED,
    /** The save finished and is complete on storage. */
    COMPLETED,
    /** A check on storage found it intact. */
    VERIFIED,
    /** A check on storage found it damaged ({@code trainer.checkpoint.verified} with ok = false). */
    CORRUPT;

    /** The higher of this and {@code other}. */
    public CheckpointStatus upTo(CheckpointStatus other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
