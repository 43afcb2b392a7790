package io.lifeline.ui;

import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.replay.FleetCounterfactual;
import io.lifeline.ui.data.CauseStat;
import io.lifeline.ui.data.EttrHistory;
import io.lifeline.ui.data.JobRow;
import java.time.Instant;
import java.util.List;

/**
 * What the Overview shows.
 *
 * @param at             model time of the data
 * @param ettr24h        fleet ETTR over the last 24 hours
 * @param ettr7d         fleet ETTR over the last 7 days
 * @param nodes          nodes known
 * @param gpus           GPUs known
 * @param jobsActive     jobs running, recovering or rescaling
 * @param openIncidents  incidents open now, newest first
 * @param causes7d       interruptions and lost GPU-hours by cause over 7 days
 * @param lostGpuHours7d lost GPU-hours over 7 days
 * @param breaching      jobs whose checkpoint is older than their objective, stalest first
 * @param nodesAtRisk    nodes with a pending notice, draining or cordoned
 * @param gain           the recent jobs' ETTR with and without Lifeline's notice policy (same history)
 */
public record OverviewModel(
        Instant at,
        EttrHistory.Window ettr24h,
        EttrHistory.Window ettr7d,
        int nodes,
        int gpus,
        int jobsActive,
        List<IncidentView> openIncidents,
        List<CauseStat> causes7d,
        double lostGpuHours7d,
        List<JobRow> breaching,
        List<NodeAtRisk> nodesAtRisk,
        FleetCounterfactual gain) {

    /**
     * A node operators should look at.
     *
     * @param name      node
     * @param pool      pool, may be null
     * @param state     lifecycle state, in words
     * @param why       notice kind, "draining" or "cordoned"
     * @param deadline  the notice's deadline, or null
     * @param jobs      jobs with ranks on it
     */
    public record NodeAtRisk(String name, String pool, String state, String why, Instant deadline, List<String> jobs) {}
}
