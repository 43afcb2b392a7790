package io.lifeline.demo;

import io.lifeline.domain.event.CapacityType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the demo fleet looks like and how it behaves: node pools, training jobs and the rates of the
 * things that go wrong. Every field is explicit here; defaults are applied by whoever reads the
 * scenario file. {@link #problems()} lists what is wrong, each problem naming its field.
 *
 * @param seed                       seed of the random stream: same seed and scenario give the same events
 * @param telemetryIntervalSeconds   seconds between two {@code gpu.sample} events of one GPU
 * @param progressIntervalSeconds    seconds between two {@code trainer.progress} events of one job
 * @param xidRatePerNodeHour         XID errors per node-hour, over the whole fleet
 * @param fatalXidFraction           share of those XIDs that are fatal (0..1)
 * @param replacementDelaySeconds    from a spot termination to the replacement node registering
 * @param nodeRepairSeconds          from a fatal XID to the repaired node being ready again
 * @param firstNoticeAfterSeconds    when set, a spot notice on a busy spot node at this time after the start
 *                                   (so a live demo shows an interruption early), may be null
 * @param pools                      node pools
 * @param jobs                       training jobs, highest priority first (the order capacity is handed out)
 */
public record Scenario(
        long seed,
        long telemetryIntervalSeconds,
        long progressIntervalSeconds,
        double xidRatePerNodeHour,
        double fatalXidFraction,
        long replacementDelaySeconds,
        long nodeRepairSeconds,
        Long firstNoticeAfterSeconds,
        List<Pool> pools,
        List<Job> jobs) {

    /** Kubernetes object names (RFC 1123 labels): what pool, namespace and job names must look like. */
    static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    static final int MAX_NAME = 50;

    public Scenario {
        pools = List.copyOf(Objects.requireNonNull(pools, "pools"));
        jobs = List.copyOf(Objects.requireNonNull(jobs, "jobs"));
    }

    /**
     * A group of identical nodes.
     *
     * @param name                      pool name, also the prefix of its node names
     * @param capacityType              spot, on-demand or reserved
     * @param zone                      availability zone
     * @param instanceType              cloud instance type (p4d.24xlarge, p5.48xlarge, a2-highgpu-8g, ...)
     * @param gpuModel                  GPU model name; null derives it from the instance type
     * @param nodeCount                 nodes in the pool (kept: each lost spot node is replaced)
     * @param gpusPerNode               GPUs on each node
     * @param interruptionsPerNodeHour  spot interruption notices per node-hour (0 for on-demand)
     * @param noticeSeconds             lead time of a notice: from notice to termination
     * @param nodePool                  the node pool label its nodes carry, or null for {@code name}: two groups of
     *                                  one label make a pool with both spot and on-demand nodes (a Karpenter NodePool
     *                                  that allows both capacity types)
     */
    public record Pool(
            String name,
            CapacityType capacityType,
            String zone,
            String instanceType,
            String gpuModel,
            int nodeCount,
            int gpusPerNode,
            double interruptionsPerNodeHour,
            long noticeSeconds,
            String nodePool) {

        /** A group whose nodes carry its own name as their pool. */
        public Pool(
                String name,
                CapacityType capacityType,
                String zone,
                String instanceType,
                String gpuModel,
                int nodeCount,
                int gpusPerNode,
                double interruptionsPerNodeHour,
                long noticeSeconds) {
            this(
                    name,
                    capacityType,
                    zone,
                    instanceType,
                    gpuModel,
                    nodeCount,
                    gpusPerNode,
                    interruptionsPerNodeHour,
                    noticeSeconds,
                    null);
        }

        /** The pool label of its nodes. */
        public String poolLabel() {
            return nodePool != null ? nodePool : name;
        }

        /** The cloud the instance type belongs to: the provider named in interruption notices. */
        public String provider() {
            if (instanceType.startsWith("Standard_")) {
                return "azure";
            }
            return instanceType.contains(".") ? "aws" : "gcp";
        }

        /** The GPU model of the pool's nodes, or null when neither the model nor the instance type is known. */
        public GpuModel resolvedGpuModel() {
            return gpuModel != null ? GpuModel.byName(gpuModel) : GpuModel.forInstanceType(instanceType);
        }
    }

    /**
     * An elastic training job (torchrun with {@code --nnodes=MIN:MAX}).
     *
     * @param namespace          Kubernetes namespace
     * @param name               job name; the job's subject is {@code namespace/name}
     * @param owner              owner, may be null
     * @param priorityClass      priority class, may be null
     * @param queue              scheduler queue, may be null
     * @param pools              pools the job may run on; empty means any
     * @param minNodes           fewest nodes it trains on
     * @param maxNodes           most nodes it uses
     * @param procsPerNode       ranks per node (one per GPU)
     * @param maxRestarts        failure restarts before the job fails
     * @param startAfterSeconds  submission time after the start
     * @param startStep          the step it resumes from when the demo starts (a run already in progress)
     * @param stepSeconds        seconds per step at max nodes (the global batch is fixed, so fewer nodes are slower)
     * @param samplesPerStep     global batch size
     * @param tokensPerSample    sequence length, for tokens/s
     * @param checkpoint         how it checkpoints
     */
    public record Job(
            String namespace,
            String name,
            String owner,
            String priorityClass,
            String queue,
            List<String> pools,
            int minNodes,
            int maxNodes,
            int procsPerNode,
            int maxRestarts,
            long startAfterSeconds,
            long startStep,
            double stepSeconds,
            int samplesPerStep,
            int tokensPerSample,
            Checkpointing checkpoint) {

        public Job {
            pools = List.copyOf(Objects.requireNonNull(pools, "pools"));
        }

        /** The job's subject: {@code namespace/name}. */
        public String key() {
            return namespace + "/" + name;
        }
    }

    /**
     * How a job saves and loads checkpoints.
     *
     * @param intervalSeconds  seconds between periodic saves
     * @param blockingSeconds  seconds the trainers are blocked per save
     * @param async            whether the upload continues in the background after the blocking part
     * @param uploadSeconds    total save duration when async (>= blockingSeconds); ignored when sync
     * @param sizeGiB          checkpoint size
     * @param restoreSeconds   seconds to load a checkpoint after a rendezvous
     * @param uriPrefix        storage prefix (for example {@code s3://bucket/path})
     * @param failureRate      share of saves that fail (0..0.5)
     * @param durableUriPrefix where a save asked for on durable storage goes when {@code uriPrefix} is a local path
     *                         (for example {@code file:///local_nvme/ckpt}); null when the job has no such place
     */
    public record Checkpointing(
            long intervalSeconds,
            double blockingSeconds,
            boolean async,
            double uploadSeconds,
            double sizeGiB,
            double restoreSeconds,
            String uriPrefix,
            double failureRate,
            String durableUriPrefix) {

        /** Checkpointing with no separate durable location. */
        public Checkpointing(
                long intervalSeconds,
                double blockingSeconds,
                boolean async,
                double uploadSeconds,
                double sizeGiB,
                double restoreSeconds,
                String uriPrefix,
                double failureRate) {
            this(
                    intervalSeconds,
                    blockingSeconds,
                    async,
                    uploadSeconds,
                    sizeGiB,
                    restoreSeconds,
                    uriPrefix,
                    failureRate,
                    null);
        }
    }

    /** Every problem of the scenario, each as {@code field: why}; empty when it is usable. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        positive(p, "telemetryIntervalSeconds", telemetryIntervalSeconds);
        positive(p, "progressIntervalSeconds", progressIntervalSeconds);
        range(p, "xidRatePerNodeHour", xidRatePerNodeHour, 0, 100);
        range(p, "fatalXidFraction", fatalXidFraction, 0, 1);
        positive(p, "replacementDelaySeconds", replacementDelaySeconds);
        positive(p, "nodeRepairSeconds", nodeRepairSeconds);
        if (firstNoticeAfterSeconds != null && firstNoticeAfterSeconds < 0) {
            p.add("firstNoticeAfterSeconds: must be >= 0, got " + firstNoticeAfterSeconds);
        }
        if (pools.isEmpty()) {
            p.add("pools: at least one pool is required");
        }
        Set<String> poolNames = new HashSet<>();
        for (int i = 0; i < pools.size(); i++) {
            poolProblems(p, "pools[" + i + "].", pools.get(i), poolNames);
        }
        Set<String> jobKeys = new HashSet<>();
        for (int i = 0; i < jobs.size(); i++) {
            jobProblems(p, "jobs[" + i + "].", jobs.get(i), poolNames, jobKeys);
        }
        return p;
    }

    private static void poolProblems(List<String> p, String at, Pool pool, Set<String> names) {
        if (name(p, at + "name", pool.name()) && !names.add(pool.name())) {
            p.add(at + "name: duplicate pool name '" + pool.name() + "'");
        }
        if (pool.capacityType() == null) {
            p.add(at + "capacityType: required (spot, on-demand or reserved)");
        }
        text(p, at + "zone", pool.zone());
        if (text(p, at + "instanceType", pool.instanceType()) && pool.resolvedGpuModel() == null) {
            p.add(
                    pool.gpuModel() != null
                            ? at + "gpuModel: unknown GPU model '" + pool.gpuModel() + "' (known: "
                                    + GpuModel.knownNames() + ")"
                            : at + "gpuModel: required, because instance type '" + pool.instanceType()
                                    + "' is not one whose GPUs are known (known: " + GpuModel.knownInstanceTypes()
                                    + ")");
        }
        range(p, at + "nodeCount", pool.nodeCount(), 1, 100_000);
        range(p, at + "gpusPerNode", pool.gpusPerNode(), 1, 16);
        range(p, at + "interruptionsPerNodeHour", pool.interruptionsPerNodeHour(), 0, 100);
        if (pool.capacityType() != null
                && pool.capacityType() != CapacityType.SPOT
                && pool.interruptionsPerNodeHour() > 0) {
            p.add(at + "interruptionsPerNodeHour: only spot pools are interrupted, got "
                    + pool.interruptionsPerNodeHour() + " for a "
                    + pool.capacityType().wireName() + " pool");
        }
        range(p, at + "noticeSeconds", pool.noticeSeconds(), 1, 3600);
    }

    private static void jobProblems(List<String> p, String at, Job job, Set<String> poolNames, Set<String> keys) {
        // Both names are checked, so that each problem is reported.
        boolean namespaceNamed = name(p, at + "namespace", job.namespace());
        boolean nameNamed = name(p, at + "name", job.name());
        boolean named = namespaceNamed && nameNamed;
        if (named && !keys.add(job.key())) {
            p.add(at + "name: duplicate job '" + job.key() + "'");
        }
        for (int k = 0; k < job.pools().size(); k++) {
            if (!poolNames.contains(job.pools().get(k))) {
                p.add(at + "pools[" + k + "]: no pool named '" + job.pools().get(k) + "'");
            }
        }
        range(p, at + "minNodes", job.minNodes(), 1, 100_000);
        if (job.maxNodes() < job.minNodes()) {
            p.add(at + "maxNodes: must be >= minNodes (" + job.minNodes() + "), got " + job.maxNodes());
        }
        range(p, at + "procsPerNode", job.procsPerNode(), 1, 16);
        range(p, at + "maxRestarts", job.maxRestarts(), 0, 1_000_000);
        range(p, at + "startAfterSeconds", job.startAfterSeconds(), 0, 365L * 86400);
        range(p, at + "startStep", job.startStep(), 0, Long.MAX_VALUE / 2.0);
        range(p, at + "stepSeconds", job.stepSeconds(), 0.01, 3600);
        range(p, at + "samplesPerStep", job.samplesPerStep(), 1, 100_000_000);
        range(p, at + "tokensPerSample", job.tokensPerSample(), 0, 10_000_000);
        Checkpointing c = job.checkpoint();
        if (c == null) {
            p.add(at + "checkpoint: required");
            return;
        }
        String cat = at + "checkpoint.";
        range(p, cat + "intervalSeconds", c.intervalSeconds(), 10, 7 * 86400);
        range(p, cat + "blockingSeconds", c.blockingSeconds(), 0.1, 3600);
        if (c.async() && c.uploadSeconds() < c.blockingSeconds()) {
            p.add(cat + "uploadSeconds: must be >= blockingSeconds (" + c.blockingSeconds()
                    + ") for an async save, got " + c.uploadSeconds());
        }
        if (c.blockingSeconds() * 2 >= c.intervalSeconds()) {
            p.add(cat + "blockingSeconds: must be less than half of intervalSeconds (" + c.intervalSeconds() + "), got "
                    + c.blockingSeconds());
        }
        if (c.intervalSeconds() <= job.stepSeconds() * job.maxNodes() / job.minNodes() * 2) {
            p.add(cat + "intervalSeconds: must span more than two steps at min nodes, got " + c.intervalSeconds());
        }
        range(p, cat + "sizeGiB", c.sizeGiB(), 0.001, 1e6);
        range(p, cat + "restoreSeconds", c.restoreSeconds(), 0.1, 3600);
        text(p, cat + "uriPrefix", c.uriPrefix());
        if (c.durableUriPrefix() != null) {
            text(p, cat + "durableUriPrefix", c.durableUriPrefix());
        }
        range(p, cat + "failureRate", c.failureRate(), 0, 0.5);
    }

    private static boolean name(List<String> p, String field, String v) {
        if (!text(p, field, v)) {
            return false;
        }
        if (v.length() > MAX_NAME || !DNS_LABEL.matcher(v).matches()) {
            p.add(field + ": must be lower-case letters, digits and '-', at most " + MAX_NAME
                    + " characters, starting and ending with a letter or digit, got '" + v + "'");
            return false;
        }
        return true;
    }

    private static boolean text(List<String> p, String field, String v) {
        if (v == null || v.isBlank()) {
            p.add(field + ": required");
            return false;
        }
        return true;
    }

    private static void positive(List<String> p, String field, long v) {
        if (v < 1) {
            p.add(field + ": must be >= 1, got " + v);
        }
    }

    private static void range(List<String> p, String field, double v, double min, double max) {
        if (Double.isNaN(v) || v < min || v > max) {
            p.add(field + ": must be between " + fmt(min) + " and " + fmt(max) + ", got " + fmt(v));
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
