package io.lifeline.domain.storage;

import java.util.List;

/**
 * The storage targets' state as plain values, for a checkpoint of the model.
 *
 * @param writers     every job's writes on every target, the target written to least recently first
 * @param jobTargets  each job's targets: the job's name, then its targets, the newest last
 */
public record SavedStorage(List<Writer> writers, List<List<String>> jobTargets) {

    public SavedStorage {
        writers = writers == null ? List.of() : List.copyOf(writers);
        jobTargets = jobTargets == null ? List.of() : List.copyOf(jobTargets);
    }

    /** Nothing learned. */
    public static SavedStorage empty() {
        return new SavedStorage(List.of(), List.of());
    }

    /**
     * One completed save: when, how big (0 when unknown), how fast it was written (null when unknown), and what it
     * added net of the checkpoint it rotated out.
     */
    public record Save(long atMillis, long bytes, Double bytesPerSecond, long netAdded) {}

    /** One job on one target. */
    public record Writer(
            String target,
            String job,
            String namespace,
            List<Long> kept,
            List<Save> saves,
            long lastSaveMillis,
            boolean finished,
            Long freeBytes,
            Long capacityBytes,
            long reportedAtMillis,
            long targetKeptAtReport) {

        public Writer {
            kept = List.copyOf(kept);
            saves = List.copyOf(saves);
        }
    }
}
