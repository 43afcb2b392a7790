package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.event.NoticeKind;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Whether an interruption notice fits the node it names, by what the node was registered as. A provider reclaims,
 * rebalances and preempts spot capacity only; a cloud sends notices about its own instances only; and a notice is
 * about an instance Lifeline knows. A notice that does not fit is refused with the reason (it moves no policy): a
 * forged or misrouted notice cannot drain an on-demand node, nor a node of another cloud, nor one never registered.
 * Notices from a source that is not a cloud (the kubelet's graceful shutdown, a health system's maintenance) and
 * nodes registered without a provider id are judged by their capacity type alone.
 */
final class NoticeFit {

    /** The notice kinds only spot (preemptible) capacity gets. */
    static final Set<NoticeKind> SPOT_ONLY =
            EnumSet.of(NoticeKind.SPOT_RECLAIM, NoticeKind.REBALANCE, NoticeKind.PREEMPT);

    private NoticeFit() {}

    /** Why {@code notice} does not fit node {@code name} with {@code facts}; null when it fits. */
    static NodeChange refusal(String name, NodeInfo facts, NodeData.InterruptionNotice notice) {
        if (facts == null) {
            return NodeChange.notApplied(
                    NotAppliedReason.UNKNOWN_NODE,
                    "no node.registered of " + name
                            + " is known: a notice must be about a node (an instance) the fleet knows");
        }
        CapacityType capacity = facts.capacityType();
        if (SPOT_ONLY.contains(notice.kind()) && capacity != null && capacity != CapacityType.SPOT) {
            return NodeChange.notApplied(
                    NotAppliedReason.IMPLAUSIBLE,
                    "a " + notice.kind().wireName() + " notice for "
                            + name + ", registered as " + capacity.wireName()
                            + " capacity: only spot capacity is reclaimed,"
                            + " rebalanced or preempted");
        }
        String from =
                notice.provider() == null ? null : notice.provider().trim().toLowerCase(Locale.ROOT);
        if (from != null
                && NodeInfo.CLOUDS.contains(from)
                && facts.provider() != null
                && !facts.provider().equals(from)) {
            return NodeChange.notApplied(
                    NotAppliedReason.IMPLAUSIBLE,
                    "a notice from " + from + " for " + name
                            + ", registered with a provider id of " + facts.provider()
                            + ": a cloud sends notices about its own"
                            + " instances only");
        }
        return null;
    }
}
