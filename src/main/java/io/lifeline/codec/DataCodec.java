package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps the {@code data} member of each catalogue type to and from its record. The wire names are
 * the record component names (camelCase); docs/events.md documents them.
 */
final class DataCodec {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int MAX_PARTICIPANTS = 100_000;
    private static final int MAX_REPLICAS = 64;
    private static final long MAX_COUNT = Long.MAX_VALUE;
    /** 2^60 bytes (1 EiB): more than any storage a trainer writes to reports, far from overflowing a sum. */
    static final long MAX_STORAGE_BYTES = 1L << 60;

    private DataCodec() {}

    static EventData decode(EventType type, DataReader d) {
        return switch (type.family()) {
            case NODE -> decodeNode(type, d);
            case GPU -> decodeGpu(type, d);
            case SCHEDULER -> decodeScheduler(type, d);
            case TRAINER -> decodeTrainer(type, d);
            case JOB -> decodeJob(type, d);
        };
    }

    private static EventData decodeNode(EventType type, DataReader d) {
        return switch (type) {
            case NODE_REGISTERED ->
                new NodeData.Registered(
                        d.reqString("pool"),
                        d.reqEnum("capacityType", CapacityType::fromWireName, "spot, on-demand, reserved"),
                        d.optString("zone"),
                        d.optString("instanceType"),
                        d.reqInt("gpuCount", 0, 1024),
                        d.optString("providerId"));
            case NODE_READY -> new NodeData.Ready();
            case NODE_NOT_READY -> new NodeData.NotReady(d.optString("reason"));
            case NODE_CORDONED -> new NodeData.Cordoned(d.optString("by"));
            case NODE_UNCORDONED -> new NodeData.Uncordoned();
            case NODE_INTERRUPTION_NOTICE -> notice(d);
            case NODE_TERMINATED -> new NodeData.Terminated(d.optString("reason"));
            case NODE_HEALTH_CHECK ->
                new NodeData.HealthCheck(d.reqBool("passed"), d.optString("checker"), d.optString("detail"));
            case NODE_ADMISSION_FAILED ->
                new NodeData.AdmissionFailed(d.reqString("pod"), d.reqString("reason"), d.optString("message"));
            default -> throw new IllegalStateException(type.name());
        };
    }

    /** A device report names its GPU by UUID, by index, or both. */
    private static GpuData.DeviceHealth deviceHealth(DataReader d) {
        String uuid = d.optString("uuid");
        Integer index = d.optInt("index", -1, 1023);
        if (uuid == null && (index == null || index < 0)) {
            throw new InvalidEventException(d.path("uuid") + ": a device report names its GPU by uuid or by index");
        }
        String source = d.reqString("source");
        if (!GpuData.DeviceHealth.KUBELET.equals(source) && !GpuData.DeviceHealth.DRA_TAINT.equals(source)) {
            throw new InvalidEventException(d.path("source") + ": one of kubelet, dra-taint, got " + source);
        }
        return new GpuData.DeviceHealth(
                uuid,
                index == null ? -1 : index,
                source,
                d.optString("device"),
                d.reqString("state"),
                d.optString("detail"));
    }

    private static NodeData.InterruptionNotice notice(DataReader d) {
        NoticeKind kind = d.reqEnum("kind", NoticeKind::fromWireName, "spot_reclaim, rebalance, maintenance, preempt");
        Instant deadline = d.optInstant("deadline");
        Instant windowEnd = d.optInstant("windowEnd");
        if (deadline != null && windowEnd != null && windowEnd.isBefore(deadline)) {
            throw new InvalidEventException(
                    d.path("windowEnd") + ": must not be before deadline (" + deadline + "), got " + windowEnd);
        }
        return new NodeData.InterruptionNotice(kind, d.optString("provider"), deadline, windowEnd);
    }

    private static EventData decodeGpu(EventType type, DataReader d) {
        if (type == EventType.GPU_DEVICE_HEALTH) {
            return deviceHealth(d);
        }
        String uuid = d.reqString("uuid");
        int index = d.reqInt("index", 0, 1023);
        if (type == EventType.GPU_XID) {
            return new GpuData.Xid(uuid, index, d.reqInt("xid", 1, 100_000), d.optString("message"));
        }
        return new GpuData.Sample(
                uuid,
                index,
                d.optString("model"),
                d.optDouble("utilizationPercent", 0, 100),
                d.optDouble("memoryUsedMiB", 0, 1e9),
                d.optDouble("memoryFreeMiB", 0, 1e9),
                d.optDouble("temperatureCelsius", -100, 300),
                d.optDouble("powerWatts", 0, 1e5),
                d.optLong("eccSbeVolatile", 0, MAX_COUNT),
                d.optLong("eccDbeVolatile", 0, MAX_COUNT),
                d.optLong("rowRemapFailures", 0, MAX_COUNT),
                d.optLong("nvlinkErrors", 0, MAX_COUNT),
                d.optInt("lastXid", 0, 100_000),
                d.optString("pod"),
                d.optString("namespace"));
    }

    private static EventData decodeScheduler(EventType type, DataReader d) {
        return switch (type) {
            case WORKLOAD_ADMITTED -> new SchedulerData.Admitted(d.optString("workload"), d.optString("queue"));
            case WORKLOAD_PREEMPTED ->
                new SchedulerData.Preempted(
                        d.optString("reason"),
                        d.optString("preemptor"),
                        d.optInt("preemptorPriority", Integer.MIN_VALUE, Integer.MAX_VALUE),
                        d.optInt("priority", Integer.MIN_VALUE, Integer.MAX_VALUE));
            case WORKLOAD_EVICTED -> new SchedulerData.Evicted(d.optString("reason"));
            case WORKLOAD_REQUEUED -> new SchedulerData.Requeued(d.optString("reason"));
            case POD_EVICTED ->
                new SchedulerData.PodEvicted(d.reqString("pod"), d.optString("node"), d.optString("reason"));
            default -> throw new IllegalStateException(type.name());
        };
    }

    private static EventData decodeTrainer(EventType type, DataReader d) {
        return switch (type) {
            case TRAINER_RENDEZVOUS -> decodeRendezvous(d);
            case TRAINER_WORKER_FAILED ->
                new TrainerData.WorkerFailed(
                        d.optString("runId"),
                        d.reqInt("rank", 0, Integer.MAX_VALUE),
                        d.optString("node"),
                        d.optInt("exitCode", Integer.MIN_VALUE, Integer.MAX_VALUE),
                        d.optString("error"),
                        d.optLong("step", 0, Long.MAX_VALUE));
            case TRAINER_RESTARTED ->
                new TrainerData.Restarted(
                        d.optString("runId"), d.reqInt("restartCount", 0, Integer.MAX_VALUE), d.optString("reason"));
            case TRAINER_PROGRESS ->
                new TrainerData.Progress(
                        d.reqLong("step", 0, Long.MAX_VALUE),
                        d.optDouble("samplesPerSecond", 0, Double.MAX_VALUE),
                        d.optDouble("tokensPerSecond", 0, Double.MAX_VALUE),
                        TrustCodec.loss(d));
            case TRAINER_STEP_TIMES -> HangCodec.stepTimes(d);
            case TRAINER_STATUS -> ControllerCodec.status(d);
            case TRAINER_STACKS -> HangCodec.stacks(d);
            case TRAINER_CHECKPOINT_STARTED ->
                new TrainerData.CheckpointStarted(
                        d.reqString("checkpointId"),
                        d.reqLong("step", 0, Long.MAX_VALUE),
                        d.optBool("async", false),
                        d.optEnum(
                                "reason",
                                TrainerData.SaveReason::fromWireName,
                                "periodic, command, prepare_exit, signal"),
                        TrustCodec.loss(d));
            case TRAINER_CHECKPOINT_COMPLETED ->
                new TrainerData.CheckpointCompleted(
                        d.reqString("checkpointId"),
                        d.reqLong("step", 0, Long.MAX_VALUE),
                        d.optLong("bytes", 0, Long.MAX_VALUE),
                        d.reqDouble("durationSeconds", 0, 1e7),
                        d.reqDouble("blockingSeconds", 0, 1e7),
                        d.optString("uri"),
                        d.optString("checksum"),
                        d.optInt("shards", 1, Integer.MAX_VALUE),
                        d.optBool("async", false),
                        d.optInt("worldSize", 1, Integer.MAX_VALUE),
                        replicas(d),
                        d.optBoolean("durable"),
                        freeBytes(d),
                        d.optLong("capacityBytes", 1, MAX_STORAGE_BYTES));
            case TRAINER_CHECKPOINT_FAILED ->
                new TrainerData.CheckpointFailed(
                        d.reqString("checkpointId"),
                        d.reqLong("step", 0, Long.MAX_VALUE),
                        d.optString("error"),
                        freeBytes(d),
                        d.optLong("capacityBytes", 1, MAX_STORAGE_BYTES),
                        TrustCodec.failReason(d),
                        d.optLong("neededBytes", 0, Long.MAX_VALUE));
            case TRAINER_CHECKPOINT_VERIFIED ->
                new TrainerData.CheckpointVerified(
                        d.reqString("checkpointId"), d.reqBool("ok"), d.optString("checksum"));
            case TRAINER_RESTORED ->
                new TrainerData.Restored(
                        d.reqString("checkpointId"), d.reqLong("step", 0, Long.MAX_VALUE), d.optString("runId"));
            case TRAINER_COMMAND_ACK ->
                new TrainerData.CommandAck(
                        d.reqString("commandId"),
                        d.optString("command"),
                        d.reqEnum("status", DataCodec::ackStatus, "accepted, rejected, done, failed"),
                        d.optString("message"));
            default -> throw new IllegalStateException(type.name());
        };
    }

    private static TrainerData.AckStatus ackStatus(String s) {
        for (TrainerData.AckStatus a : TrainerData.AckStatus.values()) {
            if (a.wireName().equalsIgnoreCase(s)) {
                return a;
            }
        }
        return null;
    }

    /**
     * The optional {@code freeBytes} the trainers read on their storage, never more than the {@code capacityBytes}
     * they report with it.
     */
    private static Long freeBytes(DataReader d) {
        Long free = d.optLong("freeBytes", 0, MAX_STORAGE_BYTES);
        Long capacity = d.optLong("capacityBytes", 1, MAX_STORAGE_BYTES);
        if (free != null && capacity != null && free > capacity) {
            throw new InvalidEventException(
                    d.path("freeBytes") + ": must not be more than capacityBytes (" + capacity + "), got " + free);
        }
        return free;
    }

    /** The optional {@code replicas} of a completed checkpoint: node names, at most {@value #MAX_REPLICAS}. */
    private static List<String> replicas(DataReader d) {
        JsonNode arr = d.optArray("replicas");
        if (arr == null) {
            return List.of();
        }
        if (arr.size() > MAX_REPLICAS) {
            throw new InvalidEventException(d.path("replicas") + ": more than " + MAX_REPLICAS + " entries");
        }
        List<String> out = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
            JsonNode n = arr.get(i);
            if (!n.isTextual() || n.asText().isBlank()) {
                throw new InvalidEventException(
                        d.path("replicas") + "[" + i + "]: expected a node name, got " + DataReader.describe(n));
            }
            out.add(n.asText());
        }
        return out;
    }

    private static EventData decodeRendezvous(DataReader d) {
        JsonNode arr = d.reqArray("participants");
        if (arr.size() > MAX_PARTICIPANTS) {
            throw new InvalidEventException(d.path("participants") + ": more than " + MAX_PARTICIPANTS + " entries");
        }
        List<TrainerData.Participant> ps = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
            JsonNode p = arr.get(i);
            if (!p.isObject()) {
                throw new InvalidEventException(
                        d.path("participants") + "[" + i + "]: expected an object, got " + DataReader.describe(p));
            }
            DataReader r = new DataReader(p, d.path("participants") + "[" + i + "].");
            ps.add(new TrainerData.Participant(
                    r.reqString("node"),
                    r.reqInt("firstRank", 0, Integer.MAX_VALUE),
                    r.reqInt("rankCount", 1, Integer.MAX_VALUE)));
        }
        return new TrainerData.Rendezvous(
                d.optString("runId"),
                d.reqInt("round", 0, Integer.MAX_VALUE),
                d.reqInt("worldSize", 1, Integer.MAX_VALUE),
                ps,
                d.optString("endpointNode"));
    }

    /** {@code healsItself}: the runtime (only {@code torchft} is known) and its coordinator's address. */
    private static JobData.SelfHealing selfHealing(DataReader h) {
        if (h == null) {
            return null;
        }
        String runtime = h.reqString("runtime");
        if (!JobData.SelfHealing.TORCHFT.equals(runtime)) {
            throw new InvalidEventException("healsItself.runtime: not a known runtime: " + runtime);
        }
        return new JobData.SelfHealing(runtime, h.optString("endpoint"));
    }

    private static EventData decodeJob(EventType type, DataReader d) {
        return switch (type) {
            case JOB_SUBMITTED ->
                new JobData.Submitted(
                        d.reqString("namespace"),
                        d.optString("owner"),
                        d.optString("priorityClass"),
                        elastic(d.reqObject("elastic")),
                        d.reqInt("gpusPerNode", 0, 1024),
                        d.optLong("checkpointIntervalSeconds", 1, 365L * 86400),
                        selfHealing(d.optObject("healsItself")));
            case JOB_UPDATED -> {
                DataReader e = d.optObject("elastic");
                yield new JobData.Updated(
                        d.optString("priorityClass"),
                        e == null ? null : elastic(e),
                        d.optInt("gpusPerNode", 0, 1024),
                        d.optLong("checkpointIntervalSeconds", 1, 365L * 86400));
            }
            case JOB_HANG_SUSPECTED -> HangCodec.hangSuspected(d);
            case JOB_RESTARTED -> ControllerCodec.restarted(d);
            case JOB_RECOVERY_ADVISED -> RecoveryCodec.advised(d);
            case JOB_RECOVERY_CHECKED -> RecoveryCodec.checked(d);
            case JOB_CHECKPOINT_TRUST -> TrustCodec.marked(d);
            case JOB_FINISHED ->
                new JobData.Finished(
                        d.reqEnum("outcome", DataCodec::outcome, "succeeded, failed, cancelled"),
                        d.optString("reason"));
            default -> throw new IllegalStateException(type.name());
        };
    }

    private static JobData.Outcome outcome(String s) {
        for (JobData.Outcome o : JobData.Outcome.values()) {
            if (o.wireName().equalsIgnoreCase(s)) {
                return o;
            }
        }
        return null;
    }

    private static ElasticPolicy elastic(DataReader e) {
        int min = e.reqInt("minNodes", 1, 100_000);
        int max = e.reqInt("maxNodes", 1, 100_000);
        if (max < min) {
            throw new InvalidEventException(e.path("maxNodes") + ": must be >= minNodes (" + min + "), got " + max);
        }
        String rdzv = e.optString("rdzvBackend");
        String autoscaling = e.optString("autoscaling");
        for (String[] f : new String[][] {{"rdzvBackend", rdzv}, {"autoscaling", autoscaling}}) {
            if (f[1] != null && (f[1].isBlank() || f[1].length() > ElasticPolicy.MAX_TEXT)) {
                throw new InvalidEventException(
                        e.path(f[0]) + ": must be 1.." + ElasticPolicy.MAX_TEXT + " characters");
            }
        }
        return new ElasticPolicy(
                min, max, e.reqInt("procsPerNode", 1, 1024), e.reqInt("maxRestarts", 0, 1_000_000), rdzv, autoscaling);
    }

    // ---------------------------------------------------------------- encoding

    static ObjectNode encode(EventData data) {
        ObjectNode o = F.objectNode();
        if (data instanceof NodeData n) {
            encodeNode(n, o);
        } else if (data instanceof GpuData g) {
            encodeGpu(g, o);
        } else if (data instanceof SchedulerData s) {
            encodeScheduler(s, o);
        } else if (data instanceof TrainerData t) {
            encodeTrainer(t, o);
        } else if (data instanceof JobData j) {
            encodeJob(j, o);
        }
        return o;
    }

    private static void encodeNode(NodeData n, ObjectNode o) {
        if (n instanceof NodeData.Registered r) {
            o.put("pool", r.pool()).put("capacityType", r.capacityType().wireName());
            putOpt(o, "zone", r.zone());
            putOpt(o, "instanceType", r.instanceType());
            o.put("gpuCount", r.gpuCount());
            putOpt(o, "providerId", r.providerId());
        } else if (n instanceof NodeData.NotReady r) {
            putOpt(o, "reason", r.reason());
        } else if (n instanceof NodeData.Cordoned c) {
            putOpt(o, "by", c.by());
        } else if (n instanceof NodeData.InterruptionNotice i) {
            o.put("kind", i.kind().wireName());
            putOpt(o, "provider", i.provider());
            putOpt(o, "deadline", i.deadline() == null ? null : i.deadline().toString());
            putOpt(o, "windowEnd", i.windowEnd() == null ? null : i.windowEnd().toString());
        } else if (n instanceof NodeData.Terminated t) {
            putOpt(o, "reason", t.reason());
        } else if (n instanceof NodeData.HealthCheck h) {
            o.put("passed", h.passed());
            putOpt(o, "checker", h.checker());
            putOpt(o, "detail", h.detail());
        } else if (n instanceof NodeData.AdmissionFailed a) {
            o.put("pod", a.pod()).put("reason", a.reason());
            putOpt(o, "message", a.message());
        }
    }

    private static void encodeGpu(GpuData g, ObjectNode o) {
        if (g instanceof GpuData.DeviceHealth h) {
            putOpt(o, "uuid", h.uuid());
            o.put("index", h.index()).put("source", h.source());
            putOpt(o, "device", h.device());
            o.put("state", h.state());
            putOpt(o, "detail", h.detail());
            return;
        }
        o.put("uuid", g.uuid()).put("index", g.index());
        if (g instanceof GpuData.Xid x) {
            o.put("xid", x.xid());
            putOpt(o, "message", x.message());
        } else if (g instanceof GpuData.Sample s) {
            putOpt(o, "model", s.model());
            putOpt(o, "utilizationPercent", s.utilizationPercent());
            putOpt(o, "memoryUsedMiB", s.memoryUsedMiB());
            putOpt(o, "memoryFreeMiB", s.memoryFreeMiB());
            putOpt(o, "temperatureCelsius", s.temperatureCelsius());
            putOpt(o, "powerWatts", s.powerWatts());
            putOpt(o, "eccSbeVolatile", s.eccSbeVolatile());
            putOpt(o, "eccDbeVolatile", s.eccDbeVolatile());
            putOpt(o, "rowRemapFailures", s.rowRemapFailures());
            putOpt(o, "nvlinkErrors", s.nvlinkErrors());
            if (s.lastXid() != null) {
                o.put("lastXid", s.lastXid());
            }
            putOpt(o, "pod", s.pod());
            putOpt(o, "namespace", s.namespace());
        }
    }

    private static void encodeScheduler(SchedulerData s, ObjectNode o) {
        if (s instanceof SchedulerData.Admitted a) {
            putOpt(o, "workload", a.workload());
            putOpt(o, "queue", a.queue());
        } else if (s instanceof SchedulerData.Preempted p) {
            putOpt(o, "reason", p.reason());
            putOpt(o, "preemptor", p.preemptor());
            if (p.preemptorPriority() != null) {
                o.put("preemptorPriority", p.preemptorPriority());
            }
            if (p.priority() != null) {
                o.put("priority", p.priority());
            }
        } else if (s instanceof SchedulerData.Evicted e) {
            putOpt(o, "reason", e.reason());
        } else if (s instanceof SchedulerData.Requeued r) {
            putOpt(o, "reason", r.reason());
        } else if (s instanceof SchedulerData.PodEvicted p) {
            o.put("pod", p.pod());
            putOpt(o, "node", p.node());
            putOpt(o, "reason", p.reason());
        }
    }

    private static void encodeTrainer(TrainerData t, ObjectNode o) {
        if (t instanceof TrainerData.Rendezvous r) {
            putOpt(o, "runId", r.runId());
            o.put("round", r.round()).put("worldSize", r.worldSize());
            ArrayNode ps = o.putArray("participants");
            for (TrainerData.Participant p : r.participants()) {
                ps.addObject()
                        .put("node", p.node())
                        .put("firstRank", p.firstRank())
                        .put("rankCount", p.rankCount());
            }
            putOpt(o, "endpointNode", r.endpointNode());
        } else if (t instanceof TrainerData.WorkerFailed w) {
            putOpt(o, "runId", w.runId());
            o.put("rank", w.rank());
            putOpt(o, "node", w.node());
            if (w.exitCode() != null) {
                o.put("exitCode", w.exitCode());
            }
            putOpt(o, "error", w.error());
            if (w.step() != null) {
                o.put("step", w.step());
            }
        } else if (t instanceof TrainerData.Restarted r) {
            putOpt(o, "runId", r.runId());
            o.put("restartCount", r.restartCount());
            putOpt(o, "reason", r.reason());
        } else if (t instanceof TrainerData.Progress p) {
            o.put("step", p.step());
            putOpt(o, "samplesPerSecond", p.samplesPerSecond());
            putOpt(o, "tokensPerSecond", p.tokensPerSecond());
            TrustCodec.putLoss(o, p.loss());
        } else if (t instanceof TrainerData.StepTimes s) {
            HangCodec.encodeStepTimes(s, o);
        } else if (t instanceof TrainerData.StatusReport s) {
            ControllerCodec.encodeStatus(s, o);
        } else if (t instanceof TrainerData.Stacks s) {
            HangCodec.encodeStacks(s, o);
        } else {
            encodeCheckpointAndCommands(t, o);
        }
    }

    private static void encodeCheckpointAndCommands(TrainerData t, ObjectNode o) {
        if (t instanceof TrainerData.CheckpointStarted c) {
            o.put("checkpointId", c.checkpointId()).put("step", c.step()).put("async", c.async());
            if (c.reason() != null) {
                o.put("reason", c.reason().wireName());
            }
            TrustCodec.putLoss(o, c.loss());
        } else if (t instanceof TrainerData.CheckpointCompleted c) {
            o.put("checkpointId", c.checkpointId()).put("step", c.step());
            putOpt(o, "bytes", c.bytes());
            o.put("durationSeconds", c.durationSeconds()).put("blockingSeconds", c.blockingSeconds());
            putOpt(o, "uri", c.uri());
            putOpt(o, "checksum", c.checksum());
            if (c.shards() != null) {
                o.put("shards", c.shards());
            }
            o.put("async", c.async());
            if (c.worldSize() != null) {
                o.put("worldSize", c.worldSize());
            }
            if (!c.replicas().isEmpty()) {
                ArrayNode rs = o.putArray("replicas");
                c.replicas().forEach(rs::add);
            }
            if (c.durable() != null) {
                o.put("durable", c.durable());
            }
            putOpt(o, "freeBytes", c.freeBytes());
            putOpt(o, "capacityBytes", c.capacityBytes());
        } else if (t instanceof TrainerData.CheckpointFailed c) {
            TrustCodec.encodeFailed(c, o);
        } else if (t instanceof TrainerData.CheckpointVerified c) {
            o.put("checkpointId", c.checkpointId()).put("ok", c.ok());
            putOpt(o, "checksum", c.checksum());
        } else if (t instanceof TrainerData.Restored r) {
            o.put("checkpointId", r.checkpointId()).put("step", r.step());
            putOpt(o, "runId", r.runId());
        } else if (t instanceof TrainerData.CommandAck a) {
            o.put("commandId", a.commandId());
            putOpt(o, "command", a.command());
            o.put("status", a.status().wireName());
            putOpt(o, "message", a.message());
        }
    }

    private static void encodeJob(JobData j, ObjectNode o) {
        if (j instanceof JobData.Submitted s) {
            o.put("namespace", s.namespace());
            putOpt(o, "owner", s.owner());
            putOpt(o, "priorityClass", s.priorityClass());
            putElastic(o, s.elastic());
            o.put("gpusPerNode", s.gpusPerNode());
            putOpt(o, "checkpointIntervalSeconds", s.checkpointIntervalSeconds());
            if (s.healsItself() != null) {
                ObjectNode h = o.putObject("healsItself")
                        .put("runtime", s.healsItself().runtime());
                putOpt(h, "endpoint", s.healsItself().endpoint());
            }
        } else if (j instanceof JobData.Updated u) {
            putOpt(o, "priorityClass", u.priorityClass());
            putElastic(o, u.elastic());
            if (u.gpusPerNode() != null) {
                o.put("gpusPerNode", u.gpusPerNode());
            }
            putOpt(o, "checkpointIntervalSeconds", u.checkpointIntervalSeconds());
        } else if (j instanceof JobData.HangSuspected h) {
            HangCodec.encodeHangSuspected(h, o);
        } else if (j instanceof JobData.Restarted r) {
            ControllerCodec.encodeRestarted(r, o);
        } else if (j instanceof JobData.RecoveryAdvised r) {
            RecoveryCodec.encodeAdvised(r, o);
        } else if (j instanceof JobData.RecoveryChecked r) {
            RecoveryCodec.encodeChecked(r, o);
        } else if (j instanceof JobData.CheckpointTrustMarked m) {
            TrustCodec.encodeMarked(m, o);
        } else if (j instanceof JobData.Finished f) {
            o.put("outcome", f.outcome().wireName());
            putOpt(o, "reason", f.reason());
        }
    }

    private static void putElastic(ObjectNode o, ElasticPolicy e) {
        if (e != null) {
            ObjectNode el = o.putObject("elastic")
                    .put("minNodes", e.minNodes())
                    .put("maxNodes", e.maxNodes())
                    .put("procsPerNode", e.procsPerNode())
                    .put("maxRestarts", e.maxRestarts());
            putOpt(el, "rdzvBackend", e.rdzvBackend());
            putOpt(el, "autoscaling", e.autoscaling());
        }
    }

    private static void putOpt(ObjectNode o, String field, String v) {
        if (v != null) {
            o.put(field, v);
        }
    }

    private static void putOpt(ObjectNode o, String field, Double v) {
        if (v != null) {
            o.put(field, v);
        }
    }

    private static void putOpt(ObjectNode o, String field, Long v) {
        if (v != null) {
            o.put(field, v);
        }
    }
}
