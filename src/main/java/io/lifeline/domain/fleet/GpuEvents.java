package io.lifeline.domain.fleet;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import java.util.List;

/**
 * Applies {@code gpu.*} events to the GPUs of a node. This is the hot path (one sample per GPU every few
 * seconds): it allocates nothing unless a GPU fails.
 */
final class GpuEvents {

    private final StringPool strings;
    private final GpuHealthRules rules;

    GpuEvents(StringPool strings, GpuHealthRules rules) {
        this.strings = strings;
        this.rules = rules;
    }

    List<NodeSignal> apply(NodeState n, Event e, GpuData d) {
        long t = e.time().toEpochMilli();
        GpuState g = n.gpu(d.index(), d.uuid(), t);
        if (g == null) {
            return List.of();
        }
        boolean failed;
        if (d instanceof GpuData.Sample s) {
            failed = g.applySample(s, t, strings.intern(s.model()), rules, n.lifeStart);
        } else if (d instanceof GpuData.Xid x) {
            failed = g.applyXid(x.xid(), t, rules, n.lifeStart);
        } else {
            return List.of();
        }
        // A GPU failing on a node that is already gone is history, not news for the jobs.
        if (!failed || n.state == NodeLifecycle.TERMINATED) {
            return List.of();
        }
        String detail = "GPU " + g.index() + " (" + g.uuid() + "): " + g.reason(rules);
        return List.of(new NodeSignal(n.name, e.time(), Kind.GPU_FAILED, null, null, detail));
    }
}
