package io.lifeline.domain.job.checkpoint;

import java.util.Locale;

/** Why a checkpoint is suspect: a restore takes it only when told to. */
public enum SuspectReason {
    /** Saved after the trainers reported a NaN or infinite loss. */
    NON_FINITE_LOSS,
    /** Saved after a loss above the configured factor times the median of the recent losses. */
    LOSS_SPIKE,
    /** The job verifies its checkpoints and this one's verification never came. */
    UNVERIFIED,
    /** Verification found it corrupt. */
    CORRUPT,
    /** An operator marked it suspect. */
    MARKED;

    /** The wire name: {@code non_finite_loss}, {@code loss_spike}, {@code unverified}, {@code corrupt}, {@code marked}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reason of a wire name, or null. */
    public static SuspectReason fromWire(String s) {
        for (SuspectReason r : values()) {
            if (r.wire().equals(s)) {
                return r;
            }
        }
        return null;
    }
}
