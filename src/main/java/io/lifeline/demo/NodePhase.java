package io.lifeline.demo;

import java.util.EnumSet;
import java.util.Set;

/**
 * Life of a simulated node. Each phase lists the phases it may follow; {@link #checkFollows} is the one
 * place transitions are checked.
 */
enum NodePhase {
    /** Joined the cluster, not ready yet (GPU operator still starting). */
    REGISTERED,
    /** Ready and schedulable. Follows REGISTERED (first boot) or NOT_READY (repaired). */
    READY,
    /** Got an interruption notice and was cordoned; its pods run until the deadline. Follows READY. */
    NOTICED,
    /** A fatal XID took a GPU out; under repair. Follows READY. */
    NOT_READY,
    /** Gone for good (reclaimed). Follows NOTICED. */
    TERMINATED;

    private Set<NodePhase> predecessors() {
        return switch (this) {
            case REGISTERED -> EnumSet.noneOf(NodePhase.class);
            case READY -> EnumSet.of(REGISTERED, NOT_READY);
            case NOTICED, NOT_READY -> EnumSet.of(READY);
            case TERMINATED -> EnumSet.of(NOTICED);
        };
    }

    /** Throws when a node cannot move from {@code from} to this phase. */
    NodePhase checkFollows(NodePhase from) {
        if (!predecessors().contains(from)) {
            throw new IllegalStateException("node cannot go from " + from + " to " + this);
        }
        return this;
    }
}
