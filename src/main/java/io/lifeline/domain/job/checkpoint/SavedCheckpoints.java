package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.job.goodput.ProductiveMark;
import java.util.List;
import java.util.Objects;

/**
 * A job's checkpoint ledger as plain values, part of a saved job ({@link CheckpointLedger#save()}).
 *
 * @param entries        the checkpoints held, oldest created first
 * @param restores       the restores kept, oldest first
 * @param changed        ids of held checkpoints changed since they were last handed over for storage, in order of change
 * @param created        how many checkpoints the ledger has seen
 * @param verifies       whether the job has been seen to verify checkpoints
 * @param lineageParent  the checkpoint the current run restored from, may be null
 * @param epoch          the current lineage epoch
 * @param epochBase      the productive time the current epoch started from
 */
public record SavedCheckpoints(
        List<SavedCheckpoint> entries,
        List<RestoreView> restores,
        List<String> changed,
        long created,
        boolean verifies,
        String lineageParent,
        int epoch,
        ProductiveMark epochBase) {

    public SavedCheckpoints {
        entries = List.copyOf(entries);
        restores = List.copyOf(restores);
        changed = List.copyOf(changed);
        Objects.requireNonNull(epochBase, "epochBase");
    }
}
