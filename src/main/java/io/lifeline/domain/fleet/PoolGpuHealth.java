package io.lifeline.domain.fleet;

/**
 * GPU verdict counts of one node pool.
 *
 * @param pool      pool name, null for GPUs on nodes that have not registered
 * @param healthy   HEALTHY GPUs
 * @param degraded  DEGRADED GPUs
 * @param failed    FAILED GPUs
 */
public record PoolGpuHealth(String pool, int healthy, int degraded, int failed) {

    /** All GPUs of the pool. */
    public int total() {
        return healthy + degraded + failed;
    }
}
