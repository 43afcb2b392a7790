package io.lifeline.domain.fleet;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.DeviceReports;
import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import java.time.Instant;

/**
 * Applies {@code gpu.*} events to the GPUs of a node. This is the hot path (one sample per GPU every few
 * seconds): it allocates nothing unless a GPU fails or an event is not applied.
 */
final class GpuEvents {

    private final StringPool strings;
    private final GpuHealthRules rules;

    GpuEvents(StringPool strings, GpuHealthRules rules) {
        this.strings = strings;
        this.rules = rules;
    }

    NodeChange apply(NodeState n, Event e, GpuData d) {
        long t = e.time().toEpochMilli();
        if (d instanceof GpuData.DeviceHealth h) {
            return device(n, e, h, t);
        }
        if (d instanceof GpuData.Xid x) {
            String unknown = unknownGpu(n, x);
            if (unknown != null) {
                return NodeChange.notApplied(NotAppliedReason.UNKNOWN_GPU, unknown);
            }
        }
        GpuState g = n.gpu(d.index(), d.uuid(), t);
        if (g == null) {
            return d.index() < 0 || d.index() >= NodeState.MAX_GPUS
                    ? NodeChange.notApplied(
                            NotAppliedReason.OUT_OF_RANGE,
                            "GPU index " + d.index() + " is beyond the " + NodeState.MAX_GPUS
                                    + " GPUs a node is kept with")
                    : NodeChange.notApplied(
                            NotAppliedReason.STALE,
                            "event time " + e.time() + " is older than the GPU now at index " + d.index()
                                    + " of the node");
        }
        boolean failed;
        if (d instanceof GpuData.Sample s) {
            if (t <= g.sampledMillis()) {
                return NodeChange.notApplied(
                        NotAppliedReason.STALE,
                        "event time " + e.time() + " is not newer than the GPU's sample at "
                                + Instant.ofEpochMilli(g.sampledMillis()));
            }
            failed = g.applySample(s, t, strings.intern(s.model()), rules, n.lifeStart);
        } else if (d instanceof GpuData.Xid x) {
            if (t < n.lifeStart) {
                return NodeChange.notApplied(
                        NotAppliedReason.STALE,
                        "event time " + e.time() + " is older than the node's registration at "
                                + Instant.ofEpochMilli(n.lifeStart));
            }
            if (g.knowsXid(x.xid(), t)) {
                return NodeChange.UNCHANGED;
            }
            failed = g.applyXid(x.xid(), t, rules, n.lifeStart);
        } else {
            return NodeChange.UNCHANGED;
        }
        // A GPU failing on a node that is already gone is history, not news for the jobs.
        if (!failed || n.state == NodeLifecycle.TERMINATED) {
            return NodeChange.CHANGED;
        }
        String detail = "GPU " + g.index() + " (" + g.uuid() + "): " + g.reason(rules);
        return NodeChange.changed(new NodeSignal(n.name, e.time(), Kind.GPU_FAILED, null, null, detail));
    }

    /**
     * A device report from Kubernetes, on the GPU it names: by UUID among the node's GPUs (a device plugin's or DRA
     * driver's id for NVIDIA GPUs), else by index. A GPU first named by such a report is taken at its index only when
     * the report gives one within the node's registered GPUs; anything else names a GPU the node never reported.
     */
    private NodeChange device(NodeState n, Event e, GpuData.DeviceHealth h, long t) {
        GpuState g = null;
        for (GpuState candidate : n.gpus) {
            if (candidate != null && h.uuid() != null && candidate.uuid().equals(h.uuid())) {
                g = candidate;
                break;
            }
        }
        int index = h.index();
        if (g == null && index >= 0 && index < n.gpus.length && n.gpus[index] != null && h.uuid() == null) {
            g = n.gpus[index];
        }
        NodeInfo facts = n.facts();
        if (g == null
                && h.uuid() != null
                && index >= 0
                && (index >= n.gpus.length || n.gpus[index] == null)
                && facts != null
                && index < facts.gpuCount()) {
            g = n.gpu(index, h.uuid(), t);
        }
        if (g == null) {
            return NodeChange.notApplied(
                    NotAppliedReason.UNKNOWN_GPU,
                    n.name + " reported no GPU " + (h.uuid() != null ? h.uuid() : "at index " + index) + ": the device "
                            + h.device() + " cannot be matched to one of its GPUs");
        }
        DeviceReports.Outcome outcome = g.applyDevice(h, t, rules);
        if (outcome == DeviceReports.Outcome.STALE) {
            return NodeChange.notApplied(
                    NotAppliedReason.STALE,
                    "event time " + e.time() + " is older than the GPU's newer " + h.source() + " report");
        }
        if (outcome == DeviceReports.Outcome.UNCHANGED) {
            return NodeChange.UNCHANGED;
        }
        if (!g.deviceReportFailed() || n.state == NodeLifecycle.TERMINATED) {
            return NodeChange.CHANGED;
        }
        String detail = "GPU " + g.index() + " (" + g.uuid() + "): " + g.reason(rules);
        return NodeChange.changed(new NodeSignal(n.name, e.time(), Kind.GPU_FAILED, null, null, detail));
    }

    /**
     * Why an XID names a GPU its node has not reported; null when it names one. A GPU is reported by its telemetry
     * (its UUID at its index) or, before its first sample, by the node's registration (an index below its GPU count):
     * an XID must name the GPU at its index by that GPU's UUID, so that a forged XID with a made-up UUID, or with an
     * index the node does not have, drains nothing. (A GPU swapped at an index is known by its first sample.)
     */
    static String unknownGpu(NodeState n, GpuData.Xid x) {
        int index = x.index();
        GpuState at = index >= 0 && index < n.gpus.length ? n.gpus[index] : null;
        if (at != null && at.uuid().equals(x.uuid())) {
            return null;
        }
        for (GpuState g : n.gpus) {
            if (g != null && g.uuid().equals(x.uuid())) {
                return "the XID names GPU " + x.uuid() + " at index " + index + ", but " + n.name
                        + " reports it at index " + g.index();
            }
        }
        if (at != null) {
            return "GPU " + index + " of " + n.name + " is " + at.uuid() + "; the XID names " + x.uuid()
                    + ", a GPU the node never reported";
        }
        NodeInfo facts = n.facts();
        if (facts != null && index >= 0 && index < facts.gpuCount()) {
            return null;
        }
        return facts == null
                ? n.name + " has not registered and reported no GPU at index " + index + ": the XID names a GPU it does"
                        + " not have"
                : n.name + " registered " + facts.gpuCount() + " GPU(s) and reported none at index " + index
                        + ": the XID names a GPU it does not have";
    }
}
