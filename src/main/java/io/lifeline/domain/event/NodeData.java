package io.lifeline.domain.event;

import java.time.Instant;

/** Payloads of {@code node.*} events; the event subject is the node name. */
public sealed interface NodeData extends EventData {

    /**
     * A node joined the fleet.
     *
     * @param pool          node pool / group name
     * @param capacityType  spot, on-demand or reserved
     * @param zone          availability zone, may be null
     * @param instanceType  cloud instance type, may be null
     * @param gpuCount      GPUs on the node
     * @param providerId    cloud provider id (for example {@code aws:///us-east-1a/i-0abc}), may be null
     */
    record Registered(
            String pool, CapacityType capacityType, String zone, String instanceType, int gpuCount, String providerId)
            implements NodeData {}

    /** The node became Ready. */
    record Ready() implements NodeData {}

    /** The node stopped being Ready; {@code reason} may be null. */
    record NotReady(String reason) implements NodeData {}

    /** The node was made unschedulable; {@code by} (who or what cordoned it) may be null. */
    record Cordoned(String by) implements NodeData {}

    /** The node was made schedulable again. */
    record Uncordoned() implements NodeData {}

    /**
     * The node will go away: a spot reclaim, rebalance recommendation, maintenance or preemption.
     *
     * @param kind      what kind of notice
     * @param provider  who sent it (aws, azure, gcp, kubernetes, ...), may be null
     * @param deadline   when the node is expected to go (a maintenance window's start), may be null when unknown
     * @param windowEnd  when the announced outage is expected to be over (a maintenance window's end: AWS
     *                   {@code NotAfter} or a Health event's {@code endTime}, Azure's {@code NotBefore} plus
     *                   {@code DurationInSeconds}), may be null when unknown or when the node does not come back
     */
    record InterruptionNotice(NoticeKind kind, String provider, Instant deadline, Instant windowEnd)
            implements NodeData {

        /** A notice without a known window end. */
        public InterruptionNotice(NoticeKind kind, String provider, Instant deadline) {
            this(kind, provider, deadline, null);
        }
    }

    /** The node is gone; {@code reason} may be null. */
    record Terminated(String reason) implements NodeData {}

    /**
     * An external health check of the node ran (a burn-in, a DCGM diagnostic, a vendor tool): what may return a node
     * drained for a GPU fault to service.
     *
     * @param passed   whether it passed
     * @param checker  what ran it, may be null
     * @param detail   what it found, may be null
     */
    record HealthCheck(boolean passed, String checker, String detail) implements NodeData {}

    /**
     * The node's kubelet rejected a pod it was sent: admission or device allocation failed on the node itself
     * ({@code status.phase=Failed} with {@code reason=UnexpectedAdmissionError}, {@code DeviceNotReady}, or an
     * "Allocate failed" message). Repeated on a Ready node, it is a node that swallows pods.
     *
     * @param pod        the rejected pod ({@code namespace/name})
     * @param reason     the pod's {@code status.reason}
     * @param message    the pod's {@code status.message}, may be null
     */
    record AdmissionFailed(String pod, String reason, String message) implements NodeData {}
}
