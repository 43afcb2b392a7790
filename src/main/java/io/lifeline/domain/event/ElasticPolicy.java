package io.lifeline.domain.event;

/**
 * Elastic bounds of a job, as torchrun's {@code --nnodes=MIN:MAX} and PyTorchJob's elasticPolicy.
 *
 * @param minNodes      fewest nodes the job can run on
 * @param maxNodes      most nodes it can use
 * @param procsPerNode  worker processes (ranks) per node
 * @param maxRestarts   restarts allowed before the job fails
 * @param rdzvBackend   the rendezvous backend the job's agents meet through ({@code c10d}, {@code etcd}, {@code etcd-v2},
 *                      ...), null when not said
 * @param autoscaling   what scales the job between its bounds, in words (a PyTorchJob's HPA metrics:
 *                      {@code cpu Utilization 80%}), null when nothing does
 */
public record ElasticPolicy(
        int minNodes, int maxNodes, int procsPerNode, int maxRestarts, String rdzvBackend, String autoscaling) {

    /** Longest rendezvous backend name and autoscaling description kept. */
    public static final int MAX_TEXT = 256;

    /** A policy that names no rendezvous backend and no autoscaling. */
    public ElasticPolicy(int minNodes, int maxNodes, int procsPerNode, int maxRestarts) {
        this(minNodes, maxNodes, procsPerNode, maxRestarts, null, null);
    }

    public ElasticPolicy {
        if (rdzvBackend != null && (rdzvBackend.isBlank() || rdzvBackend.length() > MAX_TEXT)) {
            throw new IllegalArgumentException("rdzvBackend must be 1.." + MAX_TEXT + " characters");
        }
        if (autoscaling != null && (autoscaling.isBlank() || autoscaling.length() > MAX_TEXT)) {
            throw new IllegalArgumentException("autoscaling must be 1.." + MAX_TEXT + " characters");
        }
        if (minNodes < 1 || maxNodes < minNodes) {
            throw new IllegalArgumentException("need 1 <= minNodes <= maxNodes, got " + minNodes + ":" + maxNodes);
        }
        if (procsPerNode < 1) {
            throw new IllegalArgumentException("procsPerNode must be >= 1, got " + procsPerNode);
        }
        if (maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must be >= 0, got " + maxRestarts);
        }
    }
}
