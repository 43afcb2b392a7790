package io.lifeline.domain.job.checkpoint;

import java.time.Instant;
import java.util.List;

/**
 * One checkpoint of a job, with every field its events carried and its place in the lineage.
 *
 * @param id              checkpoint id
 * @param step            training step saved
 * @param status          where it stands
 * @param good            whether it counts as a restore point (complete, and verified when the job verifies)
 * @param trust           whether it is trusted, and why not (see {@link CheckpointTrust}); null while not complete
 * @param restoredFrom    the checkpoint the run that saved it had restored from (lineage parent), or null
 * @param startedAt       save began, or null
 * @param completedAt     save completed, or null
 * @param failedAt        save failed, or null
 * @param verifiedAt      verification time, or null
 * @param async           saved asynchronously
 * @param bytes           size, or null
 * @param durationMillis  total save time, or null
 * @param blockingMillis  time the trainers were blocked, or null
 * @param uri             storage location, or null
 * @param checksum        checksum reported at completion, or null
 * @param verifiedChecksum checksum reported by verification, or null
 * @param shards          shard count, or null
 * @param worldSize       world size at save, or null
 * @param error           why the save failed, or null
 * @param restoreCount    how many times a run restored from it
 * @param durability      where it is stored ({@code object-storage}, {@code shared-filesystem}, {@code replicated},
 *                        {@code node-local}, {@code unknown}), or null before it completed
 * @param nodes           the nodes holding it when it is node-local or replicated (a node-local one does not survive
 *                        the loss of any of them); empty otherwise
 */
public record CheckpointView(
        String id,
        long step,
        CheckpointStatus status,
        boolean good,
        CheckpointTrust trust,
        String restoredFrom,
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
        String durability,
        List<String> nodes) {

    public CheckpointView {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** Whether a copy is left once {@code node} is gone; one not classified (not completed) counts as surviving. */
    public boolean survivesLossOf(String node) {
        Durability d = durabilityClass();
        return d == null || d.survivesLossOf(node, nodes);
    }

    /** Whether the loss of any one node leaves a copy. */
    public boolean survivesAnyNode() {
        Durability d = durabilityClass();
        return d == null || d.survivesAnyNode(nodes);
    }

    /** Whether it is complete and trusted: what a restore takes unless told otherwise. */
    public boolean trusted() {
        return trust != null && trust.trusted();
    }

    /** The durability as its enum, or null. */
    public Durability durabilityClass() {
        if (durability == null) {
            return null;
        }
        for (Durability d : Durability.values()) {
            if (d.wire().equals(durability)) {
                return d;
            }
        }
        return null;
    }
}
