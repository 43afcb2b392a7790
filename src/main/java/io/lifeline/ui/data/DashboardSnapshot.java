package io.lifeline.ui.data;

import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One consistent, immutable read of the model that every open dashboard shares: built at most about once a
 * second on the model thread, so ten open dashboards cost one read, and no browser tab holds its own copy.
 *
 * @param builtAt        model time of the read
 * @param nodes          every node, sorted by pool, zone and name
 * @param gpusByNode     each node's GPUs by index
 * @param jobsByNode     the jobs with ranks on each node
 * @param jobs           every job, sorted by name
 * @param openIncidents  incidents open now, newest first
 * @param causes24h      interruptions by cause in the last 24 hours
 * @param causes7d       interruptions by cause in the last 7 days
 * @param fleetGoodput   the whole fleet's goodput since its jobs started
 * @param notices        nodes with a pending interruption notice
 * @param version        increases with every read that differs from the previous one
 */
public record DashboardSnapshot(
        Instant builtAt,
        List<NodeSummary> nodes,
        Map<String, List<GpuView>> gpusByNode,
        Map<String, List<String>> jobsByNode,
        List<JobRow> jobs,
        List<IncidentView> openIncidents,
        List<CauseStat> causes24h,
        List<CauseStat> causes7d,
        GoodputView fleetGoodput,
        List<NodeNotice> notices,
        long version) {

    /** Nothing read yet. */
    public static final DashboardSnapshot EMPTY = new DashboardSnapshot(
            Instant.EPOCH,
            List.of(),
            Map.of(),
            Map.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            GoodputView.EMPTY,
            List.of(),
            0);

    /** Whether this is the empty snapshot from before the first read. */
    public boolean isEmpty() {
        return version == 0;
    }
}
