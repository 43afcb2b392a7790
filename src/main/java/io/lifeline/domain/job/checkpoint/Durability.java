package io.lifeline.domain.job.checkpoint;

import java.util.Locale;

/**
 * Whether a checkpoint outlives the loss of a node, by where it is stored. Only the first three protect a job against
 * losing the node it runs on; {@link #UNKNOWN} (no location reported) is counted as surviving, as before locations
 * were classified, so that trainers which report none are not all flagged.
 */
public enum Durability {
    /** An object store (s3://, gs://, az://, abfs://, wasb://, hdfs://...): outlives every node. */
    OBJECT_STORAGE,
    /**
     * A path the trainers declared durable ({@code durable: true}), or one under a file system the operator configured
     * as shared ({@code lifeline.checkpoints.shared-paths}).
     */
    SHARED_FILESYSTEM,
    /** Complete copies on two or more nodes, as the trainers reported: outlives the loss of any one of them. */
    REPLICATED,
    /**
     * A local path (file:// or plain) neither declared durable nor under a shared prefix, with fewer than two replicas:
     * only on the node(s) that wrote it.
     */
    NODE_LOCAL,
    /** No location reported. */
    UNKNOWN;

    /** Computed once: every snapshot of the model asks it of every checkpoint it shows. */
    private final String wire = name().toLowerCase(Locale.ROOT).replace('_', '-');

    public String wire() {
        return wire;
    }

    /**
     * Whether a copy is left once {@code node} is gone, for a checkpoint held on {@code holders}: a replicated one
     * keeps a copy on another holder; a node-local one is in pieces on each node that wrote it (its shards), so it is
     * lost with any of them, and kept only when {@code node} is not one (an unknown writer counts as lost).
     */
    public boolean survivesLossOf(String node, java.util.List<String> holders) {
        return switch (this) {
            case OBJECT_STORAGE, SHARED_FILESYSTEM, UNKNOWN -> true;
            case REPLICATED -> holders.stream().anyMatch(h -> !h.equals(node));
            case NODE_LOCAL -> !holders.isEmpty() && !holders.contains(node);
        };
    }

    /** Whether the loss of any single node leaves a copy (what a job's freshness counts on). */
    public boolean survivesAnyNode(java.util.List<String> holders) {
        return switch (this) {
            case OBJECT_STORAGE, SHARED_FILESYSTEM, UNKNOWN -> true;
            case REPLICATED -> holders.size() >= 2;
            case NODE_LOCAL -> false;
        };
    }
}
