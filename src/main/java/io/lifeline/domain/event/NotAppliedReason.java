package io.lifeline.domain.event;

/**
 * Why the model did not apply an event. The wire names are stable codes: the event API's answer, the connectors'
 * answers, the Kafka ingest's log and the {@code lifeline_ingest_not_applied_events_total} metric use them.
 */
public enum NotAppliedReason {
    /**
     * Older than what the subject already knows: a node event dated before the node's registration (its current
     * life) or before the newer value of the same register, a GPU sample older than the newest one.
     */
    STALE("stale"),
    /**
     * An interruption notice whose deadline had passed when it reached the model: kept as the node's history (its
     * interruptions, its jobs' timelines), never pending, never at risk, and no policy acts on it.
     */
    EXPIRED("expired"),
    /** About a node that is terminated: only a new registration brings it back. */
    NODE_TERMINATED("node_terminated"),
    /** A lifecycle move the node's state may not make (a Ready while an interruption notice is pending). */
    ILLEGAL_TRANSITION("illegal_transition"),
    /** About a job Lifeline does not know (a rank's step times before the job's first event). */
    UNKNOWN_JOB("unknown_job"),
    /** About a job that has ended. */
    JOB_ENDED("job_ended"),
    /** The job has this event (same source and id) already. */
    DUPLICATE("duplicate"),
    /** A value beyond what the model keeps (a GPU index of 64 or more). */
    OUT_OF_RANGE("out_of_range"),
    /**
     * An interruption notice about a node the fleet has no registration of: a notice must be about a node (an
     * instance) Lifeline knows.
     */
    UNKNOWN_NODE("unknown_node"),
    /**
     * An interruption notice that does not fit its node: a spot reclaim, rebalance recommendation or preemption for
     * on-demand or reserved capacity, or a notice from a cloud other than the one the node was registered with.
     */
    IMPLAUSIBLE("implausible"),
    /** An XID naming a GPU (by UUID and index) that its node has not reported. */
    UNKNOWN_GPU("unknown_gpu"),
    /**
     * A field that names another scope than the event's subject: a job submission whose {@code namespace} is not the
     * namespace of the job it is about (or no Kubernetes namespace name at all). A job's namespace is who may see and
     * act on it, so it comes from the subject, which the sender's token was checked against.
     */
    SCOPE_MISMATCH("scope_mismatch"),
    /**
     * A new job or node beyond what the model keeps ({@code lifeline.model.limits.max-*}): the fleet's or the namespace's
     * jobs, or the fleet's nodes. Memory stays bounded whatever a sender makes up; the subjects already known go on.
     */
    LIMIT_REACHED("limit_reached"),
    /** The model failed on it (a defect: logged with the event). */
    FAILED("failed");

    private final String wire;

    NotAppliedReason(String wire) {
        this.wire = wire;
    }

    /** The stable code. */
    public String wire() {
        return wire;
    }
}
