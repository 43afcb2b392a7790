package io.lifeline.domain.job.membership;

import java.time.Instant;

/**
 * The job's size from {@code time} on: a point of its world-size-over-time series.
 *
 * @param time       when the size took effect
 * @param worldSize  ranks (0 when the job left its nodes)
 * @param nodes      nodes hosting ranks
 * @param reason     what changed it: {@code rendezvous}, {@code node-lost}, {@code released}
 */
public record WorldSizePoint(Instant time, int worldSize, int nodes, String reason) {}
