package io.lifeline.domain.fleet;

/** What a requested lifecycle transition did. Only {@link #APPLIED} changed anything. */
public enum TransitionOutcome {
    /** The node moved to the requested state. */
    APPLIED,
    /** The node was already in that state (a repeat is harmless). */
    UNCHANGED,
    /** The request is older than the node's current state (last writer wins by event time). */
    STALE,
    /** The node's state may not be followed by the requested one (see {@link NodeLifecycle}). */
    ILLEGAL,
    /** No such node. */
    UNKNOWN_NODE
}
