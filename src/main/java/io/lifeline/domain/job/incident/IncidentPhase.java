package io.lifeline.domain.job.incident;

import io.lifeline.domain.support.WireEnum;

/** The steps of an incident, stamped with their time as they happen. */
public enum IncidentPhase implements WireEnum {
    /** A warning: interruption notice, node not ready, GPU fault. Training goes on. */
    WARNED,
    /** Training stopped (worker failure, termination, eviction, preemption). */
    STOPPED,
    /** Lifeline suspected the job hung: alive, no progress past its threshold. */
    HUNG,
    /** The ranks' stacks arrived (the detail names the request, readable from the job's stacks). */
    CAPTURED,
    /** The job waits off its nodes (preempted, suspended, requeued). */
    WAITING,
    /** The scheduler admitted the job again. */
    ADMITTED,
    /** The elastic agent restarted the workers. */
    RESTARTED,
    /** The workers formed a new group (re-rendezvous). */
    REJOINED,
    /** The trainers loaded a checkpoint. */
    RESTORED,
    /** The first progress after the restart: the incident is closed. */
    RESUMED,
    /** The warning expired (or the node came back) without stopping training. */
    AVERTED,
    /** The job ended while the incident was open. */
    ENDED
}
