package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * What a checkpoint's trust rests on, as plain values (part of {@link SavedCheckpoint}).
 *
 * @param loss        the loss when the save began, as {@link CheckpointTrust#lossText} writes it; null when none
 * @param lossReason  what the loss made it (non-finite, a spike), or null
 * @param lossDetail  the loss verdict in words, or null
 * @param marked      an operator's mark: true trusted, false suspect, null none
 * @param markReason  the operator's reason, or null
 * @param markedBy    who marked it, or null
 * @param markedAt    when, or null
 */
public record SavedTrust(
        String loss,
        SuspectReason lossReason,
        String lossDetail,
        Boolean marked,
        String markReason,
        String markedBy,
        Instant markedAt) {}
