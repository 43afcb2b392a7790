package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One checkpoint's state as plain values, part of {@link SavedCheckpoints}. The fields are those of its events, as
 * recorded; {@code completedAt} is the completion event's own time (null when it was not seen).
 *
 * @param id              checkpoint id
 * @param ordinal         order of creation in its ledger, from 1
 * @param step            training step
 * @param status          status
 * @param epoch           lineage epoch in which the training state was captured
 * @param mark            productive time captured, null when unknown
 * @param restoredFrom    the lineage parent when it was created, may be null
 * @param trust           the loss at its start and an operator's mark, may be null (none)
 * @param startedAt       start event time, may be null
 * @param completedAt     completion event time, may be null
 * @param failedAt        failure event time, may be null
 * @param verifiedAt      verification event time, may be null
 * @param async           whether the save was asynchronous
 * @param bytes           size, may be null
 * @param durationMillis  save duration, may be null
 * @param blockingMillis  time the trainers were blocked, may be null
 * @param uri             location, may be null
 * @param checksum        checksum reported at completion, may be null
 * @param verifiedChecksum checksum reported at verification, may be null
 * @param shards          shard count, may be null
 * @param worldSize       ranks that saved it, may be null
 * @param error           why it failed, may be null
 * @param restoreCount    how often runs restored from it
 * @param reason          why the trainers saved it, may be null
 * @param durability      where it is stored, null before it completed (and in checkpoints of earlier releases)
 * @param holders         nodes holding a node-local or replicated checkpoint, may be null
 */
public record SavedCheckpoint(
        String id,
        long ordinal,
        long step,
        CheckpointStatus status,
        int epoch,
        ProductiveMark mark,
        String restoredFrom,
        SavedTrust trust,
        Instant startedAt,
        Instant completedAt,
        Instant failedAt,
        Instant verifiedAt,
        boolean async,
        Long bytes,
        Long durationMillis,
        Long blockingMillis,
        String uri,
        String checksum,
        String verifiedChecksum,
        Integer shards,
        Integer worldSize,
        String error,
        int restoreCount,
        TrainerData.SaveReason reason,
        Durability durability,
        List<String> holders) {

    public SavedCheckpoint {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
    }
}
