package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * The trainers' latest save refused for want of space ({@code trainer.checkpoint.failed} with reason
 * {@code no_space}), while no checkpoint completed after it: the job is saving nothing until someone makes room.
 *
 * @param checkpointId  the save refused
 * @param step          its step
 * @param at            when it was refused
 * @param detail        the checkpoint's error: {@code no_space (F bytes free, N needed): ...}
 */
public record NoSpaceRefusal(String checkpointId, long step, Instant at, String detail) {

    /** The prefix a refusal for space gives a checkpoint's error. */
    public static final String PREFIX = "no_space";

    /** The latest refusal for space in {@code history} not followed by a completed checkpoint, or null. */
    public static NoSpaceRefusal latest(CheckpointHistory history) {
        if (history == null) {
            return null;
        }
        CheckpointView refused = null;
        Instant completed = null;
        for (CheckpointView c : history.checkpoints()) {
            if (c.status() == CheckpointStatus.FAILED
                    && c.failedAt() != null
                    && c.error() != null
                    && c.error().startsWith(PREFIX)
                    && (refused == null || c.failedAt().isAfter(refused.failedAt()))) {
                refused = c;
            }
            if (c.completedAt() != null && (completed == null || c.completedAt().isAfter(completed))) {
                completed = c.completedAt();
            }
        }
        if (refused == null || completed != null && !completed.isBefore(refused.failedAt())) {
            return null;
        }
        return new NoSpaceRefusal(refused.id(), refused.step(), refused.failedAt(), refused.error());
    }
}
