package io.lifeline.domain.fleet;

import io.lifeline.domain.NotAppliedReason;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.fleet.NodeSignal.Kind;
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
        GpuState g = n.gpu(d.index(), d.uuid(), t);
        if (g == null) {
            return d.index() < 0 || d.index() >= NodeState.MAX_GPUS
                    ? NodeChange.notApplied(NotAppliedReason.OUT_OF_RANGE, "GPU index " + d.index()
                            + " is beyond the " + NodeState.MAX_GPUS + " GPUs a node is kept with")
                    : NodeChange.notApplied(NotAppliedReason.STALE, "event time " + e.time()
                            + " is older than the GPU now at index " + d.index() + " of the node");
        }
        boolean failed;
        if (d instanceof GpuData.Sample s) {
            if (t <= g.sampledMillis()) {
                return NodeChange.notApplied(NotAppliedReason.STALE, "event time " + e.time()
                        + " is not newer than the GPU's sample at " + Instant.ofEpochMilli(g.sampledMillis()));
            }
            failed = g.applySample(s, t, strings.intern(s.model()), rules, n.lifeStart);
        } else if (d instanceof GpuData.Xid x) {
            if (t < n.lifeStart) {
                return NodeChange.notApplied(NotAppliedReason.STALE, "event time " + e.time()
                        + " is older than the node's registration at " + Instant.ofEpochMilli(n.lifeStart));
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
}
