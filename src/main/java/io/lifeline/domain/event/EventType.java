package io.lifeline.domain.event;

import java.util.HashMap;
import java.util.Map;

/**
 * The v1 event catalogue. Each constant carries its wire name (the CloudEvents {@code type}),
 * its family and whether it is high-rate telemetry (kept in memory only) or a lifecycle event
 * (stored in the event log).
 */
public enum EventType {
    NODE_REGISTERED("node.registered", Family.NODE, false),
    NODE_READY("node.ready", Family.NODE, false),
    NODE_NOT_READY("node.not_ready", Family.NODE, false),
    NODE_CORDONED("node.cordoned", Family.NODE, false),
    NODE_UNCORDONED("node.uncordoned", Family.NODE, false),
    NODE_INTERRUPTION_NOTICE("node.interruption_notice", Family.NODE, false),
    NODE_TERMINATED("node.terminated", Family.NODE, false),
    NODE_HEALTH_CHECK("node.health_check", Family.NODE, false),
    NODE_ADMISSION_FAILED("node.admission_failed", Family.NODE, false),

    GPU_SAMPLE("gpu.sample", Family.GPU, true),
    GPU_XID("gpu.xid", Family.GPU, false),
    GPU_DEVICE_HEALTH("gpu.device_health", Family.GPU, false),

    WORKLOAD_ADMITTED("workload.admitted", Family.SCHEDULER, false),
    WORKLOAD_PREEMPTED("workload.preempted", Family.SCHEDULER, false),
    WORKLOAD_EVICTED("workload.evicted", Family.SCHEDULER, false),
    WORKLOAD_REQUEUED("workload.requeued", Family.SCHEDULER, false),
    POD_EVICTED("pod.evicted", Family.SCHEDULER, false),

    TRAINER_RENDEZVOUS("trainer.rendezvous", Family.TRAINER, false),
    TRAINER_WORKER_FAILED("trainer.worker_failed", Family.TRAINER, false),
    TRAINER_RESTARTED("trainer.restarted", Family.TRAINER, false),
    TRAINER_PROGRESS("trainer.progress", Family.TRAINER, true),
    TRAINER_STEP_TIMES("trainer.step_times", Family.TRAINER, true),
    TRAINER_STATUS("trainer.status", Family.TRAINER, true),
    TRAINER_CHECKPOINT_STARTED("trainer.checkpoint.started", Family.TRAINER, false),
    TRAINER_CHECKPOINT_COMPLETED("trainer.checkpoint.completed", Family.TRAINER, false),
    TRAINER_CHECKPOINT_FAILED("trainer.checkpoint.failed", Family.TRAINER, false),
    TRAINER_CHECKPOINT_VERIFIED("trainer.checkpoint.verified", Family.TRAINER, false),
    TRAINER_RESTORED("trainer.restored", Family.TRAINER, false),
    TRAINER_COMMAND_ACK("trainer.command_ack", Family.TRAINER, false),
    TRAINER_STACKS("trainer.stacks", Family.TRAINER, false),

    JOB_SUBMITTED("job.submitted", Family.JOB, false),
    JOB_UPDATED("job.updated", Family.JOB, false),
    JOB_FINISHED("job.finished", Family.JOB, false),
    JOB_RESTARTED("job.restarted", Family.JOB, false),
    JOB_HANG_SUSPECTED("job.hang_suspected", Family.JOB, false),
    JOB_RECOVERY_ADVISED("job.recovery_advised", Family.JOB, false),
    JOB_RECOVERY_CHECKED("job.recovery_checked", Family.JOB, false),
    JOB_CHECKPOINT_TRUST("job.checkpoint_trust", Family.JOB, false);

    /** Which layer an event comes from; also what its subject names (a node for NODE and GPU, a job otherwise). */
    public enum Family {
        NODE,
        GPU,
        SCHEDULER,
        TRAINER,
        JOB;

        /** Whether the subject of events of this family is a node (otherwise a job). */
        public boolean subjectIsNode() {
            return this == NODE || this == GPU;
        }
    }

    private static final Map<String, EventType> BY_WIRE_NAME = new HashMap<>();

    static {
        for (EventType t : values()) {
            BY_WIRE_NAME.put(t.wireName, t);
        }
    }

    private final String wireName;
    private final Family family;
    private final boolean telemetry;

    EventType(String wireName, Family family, boolean telemetry) {
        this.wireName = wireName;
        this.family = family;
        this.telemetry = telemetry;
    }

    /** The CloudEvents {@code type} attribute value. */
    public String wireName() {
        return wireName;
    }

    public Family family() {
        return family;
    }

    /** High-rate telemetry is applied to memory and metrics only; everything else is stored. */
    public boolean isTelemetry() {
        return telemetry;
    }

    /**
     * Whether only Lifeline itself writes events of this type (its recovery's advice and checks, operators' marks of
     * checkpoint trust): the ingest API and the
     * Kafka topic refuse them, so that no producer can record advice that the leader would act on.
     */
    public boolean internal() {
        return this == JOB_RECOVERY_ADVISED || this == JOB_RECOVERY_CHECKED || this == JOB_CHECKPOINT_TRUST;
    }

    /** Looks a type up by wire name; {@code null} when the catalogue has no such type. */
    public static EventType fromWireName(String wireName) {
        return wireName == null ? null : BY_WIRE_NAME.get(wireName);
    }
}
