package io.lifeline.domain.fleet;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import java.util.ArrayList;
import java.util.List;

/** Applies {@code node.*} events to a node's state and says which signals they produce. */
final class NodeEvents {

    private final StringPool strings;
    private final GpuHealthRules rules;

    NodeEvents(StringPool strings, GpuHealthRules rules) {
        this.strings = strings;
        this.rules = rules;
    }

    List<NodeSignal> apply(NodeState n, Event e, NodeData d) {
        long t = e.time().toEpochMilli();
        if (d instanceof NodeData.Registered r) {
            registered(n, t, r);
            return List.of();
        }
        if (d instanceof NodeData.Ready) {
            return enter(n, e, NodeLifecycle.READY, Kind.READY, null);
        }
        if (d instanceof NodeData.NotReady nr) {
            return enter(n, e, NodeLifecycle.NOT_READY, Kind.NOT_READY, nr.reason());
        }
        if (d instanceof NodeData.Cordoned c) {
            return cordon(n, e, true, c.by());
        }
        if (d instanceof NodeData.Uncordoned) {
            return uncordon(n, e);
        }
        if (d instanceof NodeData.InterruptionNotice notice) {
            return notice(n, e, notice);
        }
        if (d instanceof NodeData.HealthCheck h) {
            healthCheck(n, e.time().toEpochMilli(), h);
            return List.of();
        }
        if (d instanceof NodeData.Terminated term) {
            return enter(n, e, NodeLifecycle.TERMINATED, Kind.TERMINATED, term.reason());
        }
        return List.of();
    }

    /** The newest health check of the node's current life is a register of its own. */
    private void healthCheck(NodeState n, long t, NodeData.HealthCheck h) {
        if (t < n.lifeStart || t < n.healthCheckMillis) {
            return;
        }
        n.healthCheckMillis = t;
        n.healthCheckPassed = h.passed();
        n.healthCheckDetail = h.detail() == null ? h.checker()
                : h.checker() == null ? h.detail() : h.checker() + ": " + h.detail();
    }

    /** Facts are a register of their own; the first registration, or one after termination, starts a new life. */
    private void registered(NodeState n, long t, NodeData.Registered r) {
        if (t >= n.factsWritten) {
            n.facts(new NodeInfo(n.name, strings.intern(r.pool()), r.capacityType(), strings.intern(r.zone()),
                    strings.intern(r.instanceType()), r.gpuCount()), t);
        }
        if (n.transition(NodeLifecycle.REGISTERED, t) == TransitionOutcome.APPLIED) {
            n.startLife(t);
            for (GpuState g : n.gpus) {
                if (g != null) {
                    g.startNewLife(rules);
                }
            }
        }
    }

    private List<NodeSignal> enter(NodeState n, Event e, NodeLifecycle target, Kind kind, String detail) {
        if (n.transition(target, e.time().toEpochMilli()) != TransitionOutcome.APPLIED) {
            return List.of();
        }
        return List.of(new NodeSignal(n.name, e.time(), kind, null, null, detail));
    }

    private List<NodeSignal> cordon(NodeState n, Event e, boolean value, String by) {
        if (!n.cordon(value, e.time().toEpochMilli()) || n.state == NodeLifecycle.TERMINATED) {
            return List.of();
        }
        return List.of(new NodeSignal(n.name, e.time(), value ? Kind.CORDONED : Kind.UNCORDONED, null, null, by));
    }

    /** Uncordoning a draining node abandons the drain: it is back in service. */
    private List<NodeSignal> uncordon(NodeState n, Event e) {
        List<NodeSignal> out = new ArrayList<>(cordon(n, e, false, null));
        if (n.state == NodeLifecycle.DRAINING) {
            out.addAll(enter(n, e, NodeLifecycle.READY, Kind.READY, "drain abandoned"));
        }
        return List.copyOf(out);
    }

    /**
     * A notice is its own register: a repeat of the same kind and deadline (cloud metadata is polled, so notices
     * repeat) changes nothing; a notice from a previous life, or for a terminated node, is ignored.
     */
    private List<NodeSignal> notice(NodeState n, Event e, NodeData.InterruptionNotice notice) {
        long t = e.time().toEpochMilli();
        if (n.state == NodeLifecycle.TERMINATED || t < n.lifeStart || t < n.noticeReceived) {
            return List.of();
        }
        long deadline = notice.deadline() == null ? NodeState.NEVER : notice.deadline().toEpochMilli();
        long windowEnd = notice.windowEnd() == null ? NodeState.NEVER : notice.windowEnd().toEpochMilli();
        if (n.noticeKind == notice.kind() && n.noticeDeadline == deadline) {
            return List.of();
        }
        n.noticeKind = notice.kind();
        n.noticeProvider = strings.intern(notice.provider());
        n.noticeDeadline = deadline;
        n.noticeWindowEnd = windowEnd;
        n.noticeReceived = t;
        n.transition(NodeLifecycle.NOTICE_RECEIVED, t);
        return List.of(new NodeSignal(n.name, e.time(), Kind.INTERRUPTION_NOTICE, notice.kind(), notice.deadline(),
                notice.provider()));
    }
}
