package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;

/**
 * The static facts of a node that other parts of the model group by (pool, capacity type, zone), and that an
 * interruption notice must fit (capacity type, provider).
 *
 * @param name          node name
 * @param pool          node pool
 * @param capacityType  spot, on-demand or reserved
 * @param zone          zone, may be null
 * @param instanceType  instance type, may be null
 * @param gpuCount      GPUs on the node
 * @param provider      the cloud of its provider id ({@code aws}, {@code azure}, {@code gcp}, or another id's
 *                      scheme), null when it was registered without one
 */
public record NodeInfo(
        String name,
        String pool,
        CapacityType capacityType,
        String zone,
        String instanceType,
        int gpuCount,
        String provider) {

    /** The clouds whose notices name them: a notice naming one of them must come from the node's own. */
    public static final java.util.Set<String> CLOUDS = java.util.Set.of("aws", "azure", "gcp");

    /** Facts of a node registered without a provider id. */
    public NodeInfo(
            String name, String pool, CapacityType capacityType, String zone, String instanceType, int gpuCount) {
        this(name, pool, capacityType, zone, instanceType, gpuCount, null);
    }

    /**
     * The cloud a Kubernetes {@code spec.providerID} names: its scheme, with GCE's {@code gce} as {@code gcp}
     * ({@code aws:///us-east-1a/i-0abc} → {@code aws}); null when there is none or it has no scheme.
     */
    public static String providerOf(String providerId) {
        if (providerId == null) {
            return null;
        }
        int sep = providerId.indexOf("://");
        if (sep <= 0 || sep > 32) {
            return null;
        }
        String scheme = providerId.substring(0, sep).trim().toLowerCase(java.util.Locale.ROOT);
        return scheme.equals("gce") ? "gcp" : scheme;
    }
}
