package io.lifeline.domain.job.spot;

import java.util.List;

/**
 * Where a job's coordinating roles run, and whether that is a risk worth flagging: a coordinating role on spot
 * capacity while capacity that is not spot (on-demand or reserved) exists in the job's pools.
 *
 * @param flagged           whether a coordinating role runs on spot while on-demand capacity exists in the job's pools
 * @param coordinators      the nodes holding rank 0 and the rendezvous endpoint (empty while the job holds no nodes)
 * @param endpointReported  whether the latest rendezvous named its endpoint's node; when not, rank 0's node is taken
 *                          to host it (torchrun's c10d store and {@code MASTER_ADDR} live on the rank-0 agent by default)
 * @param pools             the pools of the job's nodes now, sorted
 * @param onDemandPools     those of the job's pools with live on-demand or reserved nodes, sorted
 * @param warning           what is wrong and what to do, when flagged; else null
 */
public record SpotPlacement(
        boolean flagged,
        List<CoordinatorNode> coordinators,
        boolean endpointReported,
        List<String> pools,
        List<String> onDemandPools,
        String warning) {

    /** A job that holds no nodes: nothing to check. */
    public static final SpotPlacement NONE = new SpotPlacement(false, List.of(), false, List.of(), List.of(), null);

    public SpotPlacement {
        coordinators = List.copyOf(coordinators);
        pools = List.copyOf(pools);
        onDemandPools = List.copyOf(onDemandPools);
    }
}
