package io.lifeline.domain.event;

/**
 * Elastic bounds of a job, as torchrun's {@code --nnodes=MIN:MAX} and PyTorchJob's elasticPolicy.
 *
 * @param minNodes      fewest nodes the job can run on
 * @param maxNodes      most nodes it can use
 * @param procsPerNode  worker processes (ranks) per node
 * @param maxRestarts   restarts allowed before the job fails
 */
public record ElasticPolicy(int minNodes, int maxNodes, int procsPerNode, int maxRestarts) {

    public ElasticPolicy {
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
