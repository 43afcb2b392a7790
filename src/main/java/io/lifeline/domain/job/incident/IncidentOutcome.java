package io.lifeline.domain.job.incident;

import io.lifeline.domain.support.WireEnum;

/** How an incident ended. */
public enum IncidentOutcome implements WireEnum {
    /** Still open. */
    OPEN,
    /** Training resumed (first progress after the restart). */
    RECOVERED,
    /** A warning (notice, not-ready node, GPU fault) that never stopped training. */
    AVERTED,
    /** The job ended while the incident was open. */
    JOB_ENDED
}
