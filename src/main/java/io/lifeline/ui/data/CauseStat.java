package io.lifeline.ui.data;

import io.lifeline.domain.job.incident.IncidentCause;

/**
 * Interruptions of one cause within a window.
 *
 * @param cause          why
 * @param interruptions  incidents that stopped training
 * @param lostGpuHours   what they cost
 */
public record CauseStat(IncidentCause cause, int interruptions, double lostGpuHours) {}
