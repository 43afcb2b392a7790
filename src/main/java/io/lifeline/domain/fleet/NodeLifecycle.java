package io.lifeline.domain.fleet;

import io.lifeline.domain.support.WireEnum;

/**
 * The lifecycle of a node in the fleet. Each constant lists the states it may follow; {@link #canFollow} is the
 * one place where transitions are checked. Whether a node is cordoned and whether it has an interruption notice
 * are kept beside this state (Kubernetes too keeps {@code unschedulable} apart from the Ready condition), so a
 * cordon never hides whether the node is ready.
 *
 * <p>The usual paths: {@code UNKNOWN → REGISTERED → READY ⇄ NOT_READY}; a live node → {@code NOTICE_RECEIVED}
 * → ({@code DRAINING}) → {@code TERMINATED}; {@code TERMINATED → REGISTERED} starts a new life.
 */
public enum NodeLifecycle implements WireEnum {
    /** Seen only through GPU telemetry so far: facts unknown. The initial state; follows nothing. */
    UNKNOWN,
    /** Joined the fleet ({@code node.registered}), not Ready yet. Follows UNKNOWN, and TERMINATED (a new life). */
    REGISTERED,
    /**
     * Ready to run work. Follows UNKNOWN (ready seen before the registration), REGISTERED, NOT_READY, and DRAINING
     * (the drain was abandoned: the node was uncordoned).
     */
    READY,
    /** Not Ready. Follows UNKNOWN, REGISTERED, READY, NOTICE_RECEIVED (the announced outage began) and DRAINING. */
    NOT_READY,
    /**
     * An interruption notice arrived. Follows REGISTERED, READY and NOT_READY: a notice about a node never registered
     * is not applied ({@code unknown_node}).
     */
    NOTICE_RECEIVED,
    /** An action is draining it (set explicitly, never by an event). Follows REGISTERED, READY, NOT_READY, NOTICE_RECEIVED. */
    DRAINING,
    /** Gone. Kept listed as history; only {@code node.registered} brings it back. Follows every state but itself. */
    TERMINATED;

    @SuppressWarnings("ImmutableEnumChecker") // written only in the static initializer
    private int predecessors;

    static {
        allow(REGISTERED, UNKNOWN, TERMINATED);
        allow(READY, UNKNOWN, REGISTERED, NOT_READY, DRAINING);
        allow(NOT_READY, UNKNOWN, REGISTERED, READY, NOTICE_RECEIVED, DRAINING);
        allow(NOTICE_RECEIVED, REGISTERED, READY, NOT_READY);
        allow(DRAINING, REGISTERED, READY, NOT_READY, NOTICE_RECEIVED);
        allow(TERMINATED, UNKNOWN, REGISTERED, READY, NOT_READY, NOTICE_RECEIVED, DRAINING);
    }

    private static void allow(NodeLifecycle target, NodeLifecycle... from) {
        for (NodeLifecycle f : from) {
            target.predecessors |= 1 << f.ordinal();
        }
    }

    /** Whether a node in state {@code from} may move to this state. */
    public boolean canFollow(NodeLifecycle from) {
        return (predecessors & (1 << from.ordinal())) != 0;
    }
}
