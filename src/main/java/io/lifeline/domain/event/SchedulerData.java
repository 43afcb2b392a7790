package io.lifeline.domain.event;

/** Payloads of scheduler events ({@code workload.*}, {@code pod.evicted}); the subject is the job. */
public sealed interface SchedulerData extends EventData {

    /** The scheduler admitted the job's workload; {@code queue} may be null. */
    record Admitted(String workload, String queue) implements SchedulerData {}

    /**
     * The workload was preempted by higher-priority work.
     *
     * @param reason              scheduler's reason
     * @param preemptor           the workload that took the capacity, may be null
     * @param preemptorPriority   its priority, may be null
     * @param priority            the victim's priority, may be null
     */
    record Preempted(String reason, String preemptor, Integer preemptorPriority, Integer priority)
            implements SchedulerData {}

    /** The workload was evicted (for example its nodes went away). */
    record Evicted(String reason) implements SchedulerData {}

    /** The workload went back to the queue. */
    record Requeued(String reason) implements SchedulerData {}

    /** One pod of the job was evicted from a node. */
    record PodEvicted(String pod, String node, String reason) implements SchedulerData {}
}
