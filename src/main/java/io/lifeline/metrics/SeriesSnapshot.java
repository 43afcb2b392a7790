package io.lifeline.metrics;

import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.StopRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the model-derived series show, worked out from one {@link io.lifeline.runtime.ModelSnapshot} off the model
 * thread.
 *
 * @param takenAt          when it was taken
 * @param jobs             every job the model holds, by name
 * @param jobsByState      jobs per lifecycle state (every state present)
 * @param nodesByState     nodes per lifecycle state (every state present)
 * @param nodesCordoned    nodes marked unschedulable
 * @param nodesWithNotice  nodes with a pending interruption notice
 * @param gpus             GPU verdict counts per pool
 * @param unhealthyNodes   nodes whose worst GPU verdict is not healthy, with that verdict
 * @param lemonScores      nodes with a lemon score above zero, with the score
 */
record SeriesSnapshot(
        Instant takenAt,
        List<JobSample> jobs,
        Map<JobState, Integer> jobsByState,
        Map<NodeLifecycle, Integer> nodesByState,
        int nodesCordoned,
        int nodesWithNotice,
        List<PoolGpus> gpus,
        Map<String, GpuHealth> unhealthyNodes,
        Map<String, Integer> lemonScores) {

    /**
     * One job as the series show it.
     *
     * @param name                  {@code namespace/name}
     * @param namespace             namespace
     * @param submittedAt           start of this incarnation (a resubmission under the same name starts afresh)
     * @param state                 lifecycle state
     * @param checkpointAgeSeconds  age of the newest good checkpoint, or null
     * @param objectiveSeconds      freshness objective, or null when unknown
     * @param breached              whether the freshness objective is breached
     * @param workAtRiskGpuHours    GPUs held × checkpoint age
     * @param worldSize             ranks now
     * @param minWorldSize          elastic minimum in ranks, or null without an elastic policy
     * @param maxWorldSize          elastic maximum in ranks, or null without an elastic policy
     * @param gpus                  GPUs held now
     * @param ettr                  productive / (wall − waiting), or null
     * @param ettrOfWall            productive / wall, or null
     * @param restarts              interruptions that needed a restart
     * @param budgetExhausted       restarts beyond the elastic policy's budget
     * @param openIncidentCause     cause of the open incident, or null
     * @param interruptionsByCause  interruption counts by cause
     * @param incidents             the incidents the model retains, oldest first
     * @param nodes                 nodes hosting its ranks now
     * @param goodput               the job's wall time split into the model's goodput buckets
     */
    record JobSample(
            String name,
            String namespace,
            Instant submittedAt,
            JobState state,
            Double checkpointAgeSeconds,
            Double objectiveSeconds,
            boolean breached,
            double workAtRiskGpuHours,
            int worldSize,
            Integer minWorldSize,
            Integer maxWorldSize,
            int gpus,
            Double ettr,
            Double ettrOfWall,
            int restarts,
            boolean budgetExhausted,
            IncidentCause openIncidentCause,
            Map<IncidentCause, Integer> interruptionsByCause,
            List<IncidentSample> incidents,
            List<String> nodes,
            GoodputView goodput,
            io.lifeline.domain.job.straggler.StragglerView stragglers) {

        /** A job without straggler figures. */
        JobSample(
                String name,
                String namespace,
                Instant submittedAt,
                JobState state,
                Double checkpointAgeSeconds,
                Double objectiveSeconds,
                boolean breached,
                double workAtRiskGpuHours,
                int worldSize,
                Integer minWorldSize,
                Integer maxWorldSize,
                int gpus,
                Double ettr,
                Double ettrOfWall,
                int restarts,
                boolean budgetExhausted,
                IncidentCause openIncidentCause,
                Map<IncidentCause, Integer> interruptionsByCause,
                List<IncidentSample> incidents,
                List<String> nodes,
                GoodputView goodput) {
            this(
                    name,
                    namespace,
                    submittedAt,
                    state,
                    checkpointAgeSeconds,
                    objectiveSeconds,
                    breached,
                    workAtRiskGpuHours,
                    worldSize,
                    minWorldSize,
                    maxWorldSize,
                    gpus,
                    ettr,
                    ettrOfWall,
                    restarts,
                    budgetExhausted,
                    openIncidentCause,
                    interruptionsByCause,
                    incidents,
                    nodes,
                    goodput,
                    null);
        }
    }

    /**
     * One incident, reduced to what the counters need.
     *
     * @param id                    incident id
     * @param cause                 cause
     * @param lostGpuHours          lost GPU-hours so far
     * @param noticed               whether an interruption notice announced it
     * @param stopped               whether training stopped
     * @param checkpointBeforeExit  whether a checkpoint completed between the notice and the stop
     * @param stopRequest           what asked its workers to stop, or null
     * @param evictionStopMillis    from that request to the workers' stop, or null while not measured
     */
    record IncidentSample(
            String id,
            IncidentCause cause,
            double lostGpuHours,
            boolean noticed,
            boolean stopped,
            boolean checkpointBeforeExit,
            StopRequest stopRequest,
            Long evictionStopMillis) {

        /** An incident without an eviction → stop time. */
        IncidentSample(
                String id,
                IncidentCause cause,
                double lostGpuHours,
                boolean noticed,
                boolean stopped,
                boolean checkpointBeforeExit) {
            this(id, cause, lostGpuHours, noticed, stopped, checkpointBeforeExit, null, null);
        }
    }

    /**
     * GPU verdict counts of one pool.
     *
     * @param pool    pool name ({@code unregistered} for GPUs of nodes that have not registered)
     * @param counts  GPUs per verdict (every verdict present)
     */
    record PoolGpus(String pool, Map<GpuHealth, Integer> counts) {}
}
