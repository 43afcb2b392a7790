package io.lifeline.domain.fleet;

import io.lifeline.domain.event.ApplyOutcome;
import java.util.List;

/**
 * What a node or GPU event did: its outcome, and the signals it raised for the jobs on the node (some only when it
 * changed the node).
 *
 * @param outcome  changed, unchanged or not applied, with the reason
 * @param signals  for the jobs with ranks on the node, possibly none
 */
public record NodeChange(ApplyOutcome outcome, List<NodeSignal> signals) {

    static final NodeChange UNCHANGED = new NodeChange(ApplyOutcome.UNCHANGED, List.of());
    static final NodeChange CHANGED = new NodeChange(ApplyOutcome.CHANGED, List.of());

    public NodeChange {
        signals = List.copyOf(signals);
    }

    /** Not applied, no signal. */
    static NodeChange notApplied(io.lifeline.domain.event.NotAppliedReason reason, String detail) {
        return new NodeChange(ApplyOutcome.notApplied(reason, detail), List.of());
    }

    /** A change that raised {@code signal}. */
    static NodeChange changed(NodeSignal signal) {
        return new NodeChange(ApplyOutcome.CHANGED, List.of(signal));
    }
}
