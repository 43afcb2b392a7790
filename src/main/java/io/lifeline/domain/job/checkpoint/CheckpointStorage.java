package io.lifeline.domain.job.checkpoint;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Classifies a completed checkpoint by where it is stored ({@link Durability}) and on which nodes a node-local or
 * replicated one lives. The first rule that applies decides:
 * <ol>
 *   <li>a location with an object-storage (or any remote) scheme outlives every node;</li>
 *   <li>a local path at or below a prefix the operator configured as a shared file system
 *       ({@code lifeline.checkpoints.shared-paths}) is shared, whatever the trainers declared: the operator's word
 *       overrides theirs;</li>
 *   <li>what the trainers declared ({@code durable}): true, their directory outlives any node (shared);</li>
 *   <li>two or more replicas the trainers reported make it replicated;</li>
 *   <li>otherwise it is node-local: on the one replica named, else on the nodes that wrote it.</li>
 * </ol>
 * Without a location it is {@link Durability#UNKNOWN} (counted as surviving) unless the trainers declared it
 * node-local or named its replicas.
 */
public final class CheckpointStorage {

    /** Schemes of object stores and distributed file systems that outlive any node. */
    public static final Set<String> OBJECT_SCHEMES = Set.of(
            "s3", "s3a", "s3n", "gs", "gcs", "az", "azure", "abfs", "abfss", "wasb", "wasbs", "adl", "hdfs", "oss",
            "cos", "obs", "r2", "b2", "swift", "minio", "dbfs", "http", "https");

    private final List<String> sharedPrefixes;

    /**
     * @param sharedPrefixes mount points of shared file systems (for example {@code /mnt/shared}, {@code /fsx}); a
     *                       path equal to one or below it is on shared storage
     */
    public CheckpointStorage(List<String> sharedPrefixes) {
        List<String> clean = new ArrayList<>();
        for (String p : sharedPrefixes) {
            String t = p == null ? "" : p.trim();
            while (t.length() > 1 && t.endsWith("/")) {
                t = t.substring(0, t.length() - 1);
            }
            if (!t.isEmpty()) {
                clean.add(t);
            }
        }
        this.sharedPrefixes = List.copyOf(clean);
    }

    /** No shared file systems configured. */
    public static CheckpointStorage defaults() {
        return new CheckpointStorage(List.of());
    }

    public List<String> sharedPrefixes() {
        return sharedPrefixes;
    }

    /** Where a checkpoint lives: its class and the nodes holding it (empty for storage off the nodes). */
    public record Placement(Durability durability, List<String> holders) {
        public Placement {
            holders = holders == null ? List.of() : List.copyOf(holders);
        }
    }

    /**
     * @param uri       the reported location, may be null
     * @param durable   whether the trainers declared that their storage outlives any node, null when they did not say
     * @param replicas  nodes holding a complete copy as the trainers reported (the writer included), may be null
     * @param writers   the nodes the job ran on when it completed (where a local save landed)
     */
    public Placement classify(String uri, Boolean durable, List<String> replicas, List<String> writers) {
        if (uri == null || uri.isBlank()) {
            if (Boolean.FALSE.equals(durable)) {
                return replicated(replicas, new Placement(Durability.NODE_LOCAL, writers));
            }
            return replicated(replicas, new Placement(Durability.UNKNOWN, List.of()));
        }
        String u = uri.trim();
        int colon = u.indexOf("://");
        String scheme = colon > 0 ? u.substring(0, colon).toLowerCase(Locale.ROOT) : null;
        if (scheme != null && OBJECT_SCHEMES.contains(scheme)) {
            return new Placement(Durability.OBJECT_STORAGE, List.of());
        }
        String path = scheme == null ? u : "file".equals(scheme) ? u.substring(colon + 3) : null;
        if (path == null) {
            // An unknown scheme is most likely some remote store: not a path on the node.
            return new Placement(Durability.OBJECT_STORAGE, List.of());
        }
        if (underShared(path) || Boolean.TRUE.equals(durable)) {
            return new Placement(Durability.SHARED_FILESYSTEM, List.of());
        }
        return replicated(replicas, new Placement(Durability.NODE_LOCAL, writers));
    }

    private static Placement replicated(List<String> replicas, Placement otherwise) {
        Set<String> distinct = replicas == null ? Set.of() : new LinkedHashSet<>(replicas);
        if (distinct.size() >= 2) {
            return new Placement(Durability.REPLICATED, List.copyOf(distinct));
        }
        if (distinct.size() == 1 && otherwise.durability() == Durability.NODE_LOCAL) {
            return new Placement(Durability.NODE_LOCAL, List.copyOf(distinct));
        }
        return otherwise;
    }

    private boolean underShared(String path) {
        for (String p : sharedPrefixes) {
            if (path.equals(p) || path.startsWith(p.endsWith("/") ? p : p + "/")) {
                return true;
            }
        }
        return false;
    }
}
