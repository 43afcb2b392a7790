package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * Whether a complete checkpoint deserves to be restored, and why not. A restore (the {@code restore} action without a
 * checkpoint named, the trainer agent's restore helpers) takes the newest trusted checkpoint unless told otherwise.
 *
 * <p>The first rule that applies decides: an operator's mark; a checkpoint found corrupt; one saved after a non-finite
 * loss or a loss spike ({@link LossWindow}); one never verified by a job that verifies its checkpoints; otherwise
 * trusted.
 *
 * @param trusted   whether it is trusted
 * @param reason    why it is suspect ({@link SuspectReason#wire()}), or null when trusted
 * @param detail    what the verdict rests on, in words (the operator's reason for a mark), or null
 * @param loss      the loss the trainers reported when the save began ({@code "nan"}, {@code "inf"}, {@code "-inf"} for
 *                  a non-finite one, else the number as text), or null when they gave none
 * @param markedBy  who marked it, when an operator did; null otherwise
 * @param markedAt  when, or null
 */
public record CheckpointTrust(
        boolean trusted, String reason, String detail, String loss, String markedBy, Instant markedAt) {

    /** The wire text of a loss: the number, or {@code nan}, {@code inf}, {@code -inf}; null for null. */
    public static String lossText(Double loss) {
        if (loss == null) {
            return null;
        }
        if (Double.isNaN(loss)) {
            return "nan";
        }
        if (Double.isInfinite(loss)) {
            return loss > 0 ? "inf" : "-inf";
        }
        return Double.toString(loss);
    }
}
