package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** Builds the catalogue's node and gpu events for tests. */
final class FleetEvents {

    static final Instant T0 = Instant.parse("2025-11-03T09:00:00Z");
    private static final AtomicLong IDS = new AtomicLong();

    private FleetEvents() {}

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    static Event event(EventType type, String node, Instant time, EventData data) {
        return new Event("e-" + IDS.incrementAndGet(), "test://fleet", type, node, time, data);
    }

    static Event registered(String node, Instant t) {
        return registered(node, t, "a100-spot", CapacityType.SPOT, 8);
    }

    static Event registered(String node, Instant t, String pool, CapacityType capacity, int gpus) {
        return event(
                EventType.NODE_REGISTERED,
                node,
                t,
                new NodeData.Registered(
                        pool, capacity, "us-east-1a", "p4d.24xlarge", gpus, "aws:///us-east-1a/i-0abc"));
    }

    static Event ready(String node, Instant t) {
        return event(EventType.NODE_READY, node, t, new NodeData.Ready());
    }

    static Event notReady(String node, Instant t) {
        return event(EventType.NODE_NOT_READY, node, t, new NodeData.NotReady("KubeletNotReady"));
    }

    static Event cordoned(String node, Instant t) {
        return event(EventType.NODE_CORDONED, node, t, new NodeData.Cordoned("kubectl"));
    }

    static Event uncordoned(String node, Instant t) {
        return event(EventType.NODE_UNCORDONED, node, t, new NodeData.Uncordoned());
    }

    static Event notice(String node, Instant t, NoticeKind kind, Instant deadline) {
        return event(
                EventType.NODE_INTERRUPTION_NOTICE, node, t, new NodeData.InterruptionNotice(kind, "aws", deadline));
    }

    static Event terminated(String node, Instant t) {
        return event(EventType.NODE_TERMINATED, node, t, new NodeData.Terminated("spot reclaimed"));
    }

    static Event xid(String node, Instant t, int index, int xid) {
        return event(EventType.GPU_XID, node, t, new GpuData.Xid(uuid(node, index), index, xid, null));
    }

    static Event sample(String node, Instant t, GpuData.Sample s) {
        return event(EventType.GPU_SAMPLE, node, t, s);
    }

    /** A stable fake-but-well-formed GPU UUID per node and index. */
    static String uuid(String node, int index) {
        String h = Long.toHexString(0x1_0000_0000L | ((node.hashCode() * 31L + index) & 0xffffffffL))
                .substring(1);
        String i = Long.toString(1_000_000_000_000L + index).substring(1);
        return "GPU-" + h + "-0000-0000-0000-" + i;
    }

    /** A sample builder starting from a realistic idle A100 (values as dcgm-exporter reports them). */
    static Sample healthy(String node, int index) {
        return new Sample(node, index);
    }

    /** Mutable sample builder. */
    static final class Sample {
        private final String node;
        private final int index;
        Double util = 97.0;
        Double memUsed = 71_234.0;
        Double memFree = 10_686.0;
        Double temp = 64.0;
        Double power = 389.5;
        Long sbe = 0L;
        Long dbe = 0L;
        Long remapFailures = 0L;
        Long nvlink = 0L;
        Integer lastXid = 0;

        Sample(String node, int index) {
            this.node = node;
            this.index = index;
        }

        Sample temp(Double v) {
            temp = v;
            return this;
        }

        Sample dbe(Long v) {
            dbe = v;
            return this;
        }

        Sample remapFailures(Long v) {
            remapFailures = v;
            return this;
        }

        Sample nvlink(Long v) {
            nvlink = v;
            return this;
        }

        Sample lastXid(Integer v) {
            lastXid = v;
            return this;
        }

        Sample noData() {
            util = null;
            memUsed = null;
            memFree = null;
            temp = null;
            power = null;
            sbe = null;
            dbe = null;
            remapFailures = null;
            nvlink = null;
            lastXid = null;
            return this;
        }

        GpuData.Sample data() {
            return new GpuData.Sample(
                    uuid(node, index),
                    index,
                    "NVIDIA A100-SXM4-80GB",
                    util,
                    memUsed,
                    memFree,
                    temp,
                    power,
                    sbe,
                    dbe,
                    remapFailures,
                    nvlink,
                    lastXid,
                    "llama-pretrain-worker-3",
                    "research");
        }

        Event at(Instant t) {
            return sample(node, t, data());
        }
    }
}
