package io.lifeline.ui.data;

import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;

/**
 * One line of the jobs grid, as the dashboard shows it.
 *
 * @param name                 {@code namespace/name}
 * @param namespace            namespace
 * @param state                lifecycle state
 * @param worldSize            ranks now
 * @param minWorldSize         fewest ranks its elastic policy allows, or null
 * @param maxWorldSize         most ranks its elastic policy allows, or null
 * @param checkpointAgeMillis  age of its newest good checkpoint, or null
 * @param objectiveMillis      its freshness objective
 * @param breached             whether the objective is breached
 * @param ettr                 effective training time ratio, or null
 * @param lostGpuHours         lost rework and recovery in GPU-hours
 * @param restarts             restarts so far
 * @param lastIncidentCause    cause of its latest incident, or null
 * @param lastIncidentAt       when it opened, or null
 * @param incidentOpen         whether an incident is open now
 * @param pool                 main pool, or null
 * @param capacityType         main capacity type, or null
 * @param stragglers           its stragglers, or null when not known
 */
public record JobRow(
        String name,
        String namespace,
        JobState state,
        int worldSize,
        Integer minWorldSize,
        Integer maxWorldSize,
        Long checkpointAgeMillis,
        long objectiveMillis,
        boolean breached,
        Double ettr,
        double lostGpuHours,
        int restarts,
        IncidentCause lastIncidentCause,
        Instant lastIncidentAt,
        boolean incidentOpen,
        String pool,
        String capacityType,
        io.lifeline.domain.job.straggler.StragglerView stragglers) {

    /** A row without straggler figures. */
    public JobRow(
            String name,
            String namespace,
            JobState state,
            int worldSize,
            Integer minWorldSize,
            Integer maxWorldSize,
            Long checkpointAgeMillis,
            long objectiveMillis,
            boolean breached,
            Double ettr,
            double lostGpuHours,
            int restarts,
            IncidentCause lastIncidentCause,
            Instant lastIncidentAt,
            boolean incidentOpen,
            String pool,
            String capacityType) {
        this(
                name,
                namespace,
                state,
                worldSize,
                minWorldSize,
                maxWorldSize,
                checkpointAgeMillis,
                objectiveMillis,
                breached,
                ettr,
                lostGpuHours,
                restarts,
                lastIncidentCause,
                lastIncidentAt,
                incidentOpen,
                pool,
                capacityType,
                null);
    }

    /** Checkpoint age as a share of the objective (1 = at the objective), or null. */
    public Double freshnessRatio() {
        return checkpointAgeMillis == null || objectiveMillis <= 0
                ? null
                : (double) checkpointAgeMillis / objectiveMillis;
    }
}
