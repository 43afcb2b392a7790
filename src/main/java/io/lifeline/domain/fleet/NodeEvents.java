package io.lifeline.domain.fleet;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Applies {@code node.*} events to a node's state and says what each did: its outcome (changed, a repeat, or not
 * applied with the reason) and the signals it produced.
 */
final class NodeEvents {

    private final StringPool strings;
    private final GpuHealthRules rules;
    private final Clock clock;

    NodeEvents(StringPool strings, GpuHealthRules rules, Clock clock) {
        this.strings = strings;
        this.rules = rules;
        this.clock = clock;
    }

    NodeChange apply(NodeState n, Event e, NodeData d) {
        long t = e.time().toEpochMilli();
        if (d instanceof NodeData.Registered r) {
            return registered(n, t, r);
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
            return healthCheck(n, e.time().toEpochMilli(), h);
        }
        if (d instanceof NodeData.AdmissionFailed a) {
            return admissionFailed(n, t, a);
        }
        if (d instanceof NodeData.Terminated term) {
            return enter(n, e, NodeLifecycle.TERMINATED, Kind.TERMINATED, term.reason());
        }
        return NodeChange.UNCHANGED;
    }

    /**
     * A pod its kubelet rejected: a log of its own, not a register (every rejection counts, in any order); the event
     * id makes a repeat of the same pod's rejection a duplicate before it gets here.
     */
    private NodeChange admissionFailed(NodeState n, long t, NodeData.AdmissionFailed a) {
        if (n.admissions == null) {
            n.admissions = new AdmissionLog();
        }
        n.admissions.add(t, a.pod(), strings.intern(a.reason()), a.message());
        return NodeChange.CHANGED;
    }

    /** The newest health check of the node's current life is a register of its own. */
    private NodeChange healthCheck(NodeState n, long t, NodeData.HealthCheck h) {
        if (t < n.lifeStart) {
            return olderThanLife(n, t);
        }
        if (t < n.healthCheckMillis) {
            return stale(t, "the node's newer health check", n.healthCheckMillis);
        }
        n.healthCheckMillis = t;
        n.healthCheckPassed = h.passed();
        n.healthCheckDetail =
                h.detail() == null ? h.checker() : h.checker() == null ? h.detail() : h.checker() + ": " + h.detail();
        return NodeChange.CHANGED;
    }

    /** Facts are a register of their own; the first registration, or one after termination, starts a new life. */
    private NodeChange registered(NodeState n, long t, NodeData.Registered r) {
        boolean changed = false;
        if (t >= n.factsWritten) {
            NodeInfo facts = new NodeInfo(
                    n.name,
                    strings.intern(r.pool()),
                    r.capacityType(),
                    strings.intern(r.zone()),
                    strings.intern(r.instanceType()),
                    r.gpuCount(),
                    strings.intern(NodeInfo.providerOf(r.providerId())));
            changed = !facts.equals(n.facts());
            n.facts(facts, t);
        }
        TransitionOutcome moved = n.transition(NodeLifecycle.REGISTERED, t);
        if (moved == TransitionOutcome.APPLIED) {
            n.startLife(t);
            for (GpuState g : n.gpus) {
                if (g != null) {
                    g.startNewLife(rules);
                }
            }
            return NodeChange.CHANGED;
        }
        if (changed) {
            return NodeChange.CHANGED;
        }
        if (t < n.factsWritten) {
            return stale(t, "the node's newer registration", n.factsWritten);
        }
        return NodeChange.UNCHANGED;
    }

    private NodeChange enter(NodeState n, Event e, NodeLifecycle target, Kind kind, String detail) {
        long t = e.time().toEpochMilli();
        NodeLifecycle from = n.state;
        long written = n.stateWritten;
        return switch (n.transition(target, t)) {
            case APPLIED -> NodeChange.changed(new NodeSignal(n.name, e.time(), kind, null, null, detail));
            case UNCHANGED -> NodeChange.UNCHANGED;
            case STALE ->
                t < n.lifeStart ? olderThanLife(n, t) : stale(t, "the node's state (" + words(from) + ")", written);
            case ILLEGAL ->
                from == NodeLifecycle.TERMINATED
                        ? NodeChange.notApplied(
                                NotAppliedReason.NODE_TERMINATED,
                                "the node was terminated at " + Instant.ofEpochMilli(n.stateSince)
                                        + "; only a new node.registered brings it back")
                        : NodeChange.notApplied(
                                NotAppliedReason.ILLEGAL_TRANSITION,
                                "a node that is " + words(from) + " does not become " + words(target));
            case UNKNOWN_NODE -> NodeChange.UNCHANGED;
        };
    }

    private NodeChange cordon(NodeState n, Event e, boolean value, String by) {
        long t = e.time().toEpochMilli();
        if (t < n.cordonWritten) {
            return t < n.lifeStart ? olderThanLife(n, t) : stale(t, "the node's newer cordon flag", n.cordonWritten);
        }
        if (!n.cordon(value, t)) {
            return NodeChange.UNCHANGED;
        }
        if (n.state == NodeLifecycle.TERMINATED) {
            return NodeChange.CHANGED;
        }
        return NodeChange.changed(
                new NodeSignal(n.name, e.time(), value ? Kind.CORDONED : Kind.UNCORDONED, null, null, by));
    }

    /** Uncordoning a draining node abandons the drain: it is back in service. */
    private NodeChange uncordon(NodeState n, Event e) {
        NodeChange cordon = cordon(n, e, false, null);
        if (n.state != NodeLifecycle.DRAINING) {
            return cordon;
        }
        NodeChange ready = enter(n, e, NodeLifecycle.READY, Kind.READY, "drain abandoned");
        if (!ready.outcome().changed()) {
            return cordon;
        }
        List<NodeSignal> out = new ArrayList<>(cordon.signals());
        out.addAll(ready.signals());
        return new NodeChange(ApplyOutcome.CHANGED, out);
    }

    /**
     * A notice is its own register: a repeat of the same kind and deadline (cloud metadata is polled, so notices
     * repeat) changes nothing; a notice from a previous life, older than the notice the node has, or for a
     * terminated node, is not applied. A notice whose deadline has passed by the time it is applied is kept as the
     * node's history, exactly as a timely one (so that the log read back at start-up gives the same model whatever the
     * clock says then), and its outcome says {@code expired}: no policy acts on it, and it is never at risk.
     */
    private NodeChange notice(NodeState n, Event e, NodeData.InterruptionNotice notice) {
        long t = e.time().toEpochMilli();
        if (n.state == NodeLifecycle.TERMINATED) {
            return NodeChange.notApplied(
                    NotAppliedReason.NODE_TERMINATED,
                    "the node was terminated at " + Instant.ofEpochMilli(n.stateSince)
                            + "; only a new node.registered brings it back");
        }
        NodeChange implausible = NoticeFit.refusal(n.name, n.facts(), notice);
        if (implausible != null) {
            return implausible;
        }
        if (t < n.lifeStart) {
            return olderThanLife(n, t);
        }
        if (t < n.noticeReceived) {
            return stale(t, "the node's newer notice", n.noticeReceived);
        }
        long deadline =
                notice.deadline() == null ? NodeState.NEVER : notice.deadline().toEpochMilli();
        long now = clock.millis();
        ApplyOutcome expired = deadline != NodeState.NEVER && deadline <= now
                ? ApplyOutcome.notApplied(
                        NotAppliedReason.EXPIRED,
                        "its deadline " + notice.deadline()
                                + " had passed when it arrived (" + Instant.ofEpochMilli(now)
                                + "): kept as the node's history,"
                                + " not pending")
                : null;
        long windowEnd = notice.windowEnd() == null
                ? NodeState.NEVER
                : notice.windowEnd().toEpochMilli();
        if (n.noticeKind == notice.kind() && n.noticeDeadline == deadline) {
            return expired != null ? new NodeChange(expired, List.of()) : NodeChange.UNCHANGED;
        }
        n.noticeKind = notice.kind();
        n.noticeProvider = strings.intern(notice.provider());
        n.noticeDeadline = deadline;
        n.noticeWindowEnd = windowEnd;
        n.noticeReceived = t;
        n.transition(NodeLifecycle.NOTICE_RECEIVED, t);
        NodeSignal signal = new NodeSignal(
                n.name, e.time(), Kind.INTERRUPTION_NOTICE, notice.kind(), notice.deadline(), notice.provider());
        return expired != null ? new NodeChange(expired, List.of(signal)) : NodeChange.changed(signal);
    }

    private static NodeChange olderThanLife(NodeState n, long t) {
        return stale(t, "the node's registration", n.lifeStart);
    }

    private static NodeChange stale(long t, String what, long newer) {
        return NodeChange.notApplied(
                NotAppliedReason.STALE,
                "event time " + Instant.ofEpochMilli(t) + " is older than " + what + " at "
                        + Instant.ofEpochMilli(newer));
    }

    private static String words(NodeLifecycle s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
