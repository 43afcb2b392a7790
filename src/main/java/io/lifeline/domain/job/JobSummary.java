package io.lifeline.domain.job;

import java.time.Instant;

/**
 * One row of the job list.
 *
 * @param name                    job name ({@code namespace/name})
 * @param namespace               namespace
 * @param state                   lifecycle state
 * @param stateSince              when it entered that state
 * @param gpusHeld                GPUs held now
 * @param worldSize               ranks now
 * @param nodes                   nodes hosting ranks now
 * @param restarts                interruptions that needed a restart
 * @param maxRestarts             restart budget from the elastic policy, or null
 * @param restartBudgetExhausted  failures &gt; maxRestarts (interruptions with notice or by plan never count)
 * @param lastStep                latest progress step, or null
 * @param lastProgressAt          time of the latest progress, or null
 * @param freshnessAgeMillis      age of the newest good checkpoint (see {@code FreshnessView}), or null
 * @param freshnessBreached       whether the freshness objective is breached
 * @param ettr                    productive / (wall − waiting), or null
 * @param ettrOfWall              productive / wall, or null
 * @param openIncident            id of the open incident, or null
 * @param interruptions           interruptions so far
 * @param pool                    node pool most of its nodes are in, or null
 * @param capacityType            capacity type most of its nodes have ({@code spot}, {@code on-demand}...), or null
 * @param submittedAt             wall-time start
 * @param finishedAt              when it ended, or null
 * @param nodeLocalCheckpoint     whether its newest checkpoint would be lost with a node (node-local): freshness then
 *                                counts an older one, or none
 */
public record JobSummary(
        String name,
        String namespace,
        JobState state,
        Instant stateSince,
        int gpusHeld,
        int worldSize,
        int nodes,
        int restarts,
        Integer maxRestarts,
        boolean restartBudgetExhausted,
        Long lastStep,
        Instant lastProgressAt,
        Long freshnessAgeMillis,
        boolean freshnessBreached,
        Double ettr,
        Double ettrOfWall,
        String openIncident,
        int interruptions,
        String pool,
        String capacityType,
        Instant submittedAt,
        Instant finishedAt,
        boolean nodeLocalCheckpoint) {}
