package io.lifeline.demo;

/**
 * One simulated node: its identity, phase, the job holding it and the small per-GPU state that makes
 * telemetry continuous (temperature inertia, last XID, ECC counters). Memory is fixed per node.
 */
final class SimNode {

    final String name;
    final PoolState pool;
    final String providerId;
    final String[] uuids;
    /** Persistent per-GPU temperature offset: some GPUs in a chassis always run warmer. */
    final double[] thermalBias;

    final double[] temperature;
    final int[] lastXid;
    final long[] dbe;

    NodePhase phase = NodePhase.REGISTERED;
    /** The job holding this node (in its world or reserved for its next rendezvous), or null. */
    SimJob job;
    /** Whether the node's workers are in the job's current world. */
    boolean inWorld;
    /** Position in the job's world: the node hosts ranks {@code worldIndex * procsPerNode ...}. */
    int worldIndex;
    /** The job's pod on this node, for telemetry labels; null when none. */
    String pod;
    /** Unschedulable (cordoned by Lifeline or by the termination handler): no new placements on it. */
    boolean cordoned;

    SimNode(String name, PoolState pool, String providerId, Rng rng) {
        this.name = name;
        this.pool = pool;
        this.providerId = providerId;
        int gpus = pool.spec.gpusPerNode();
        this.uuids = new String[gpus];
        this.thermalBias = new double[gpus];
        this.temperature = new double[gpus];
        this.lastXid = new int[gpus];
        this.dbe = new long[gpus];
        for (int i = 0; i < gpus; i++) {
            uuids[i] = rng.gpuUuid();
            thermalBias[i] = rng.uniform(-4, 4);
            temperature[i] = 33 + thermalBias[i] / 2;
        }
    }

    void moveTo(NodePhase next) {
        phase = next.checkFollows(phase);
    }

    /** Ready, schedulable (not cordoned) and held by no job. */
    boolean free() {
        return phase == NodePhase.READY && job == null && !cordoned;
    }

    /** The first global rank this node hosts in its job's world. */
    int firstRank() {
        return worldIndex * job.spec.procsPerNode();
    }
}
