package io.lifeline.domain.job.incident;

import io.lifeline.domain.support.WireEnum;

/**
 * What told a job's workers to stop, the start of an incident's eviction → stop time: a pod eviction (the Eviction API,
 * a drain, a preemption of the pod by the kube-scheduler) or the scheduler taking the whole workload back (Kueue).
 */
public enum StopRequest implements WireEnum {
    /** A pod of the job was evicted ({@code pod.evicted}: an eviction, a drain, a pod preemption). */
    POD_EVICTION("pod_eviction"),
    /** The scheduler preempted the workload for higher-priority work ({@code workload.preempted}). */
    WORKLOAD_PREEMPTION("workload_preemption"),
    /** The scheduler evicted the workload for another reason ({@code workload.evicted}). */
    WORKLOAD_EVICTION("workload_eviction"),
    /** The scheduler requeued the running workload ({@code workload.requeued}). */
    WORKLOAD_REQUEUE("workload_requeue");

    private final String label;

    StopRequest(String label) {
        this.label = label;
    }

    /** Its label on the {@code lifeline_eviction_stop} metric (in the API it is its {@link #wire()} name). */
    public String metricLabel() {
        return label;
    }
}
