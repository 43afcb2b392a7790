package io.lifeline.domain.job;

/**
 * A job's share of one pool (or capacity type): how many of its active nodes are there now, the
 * node-time they spent exposed to interruptions (running or rescaling), and the interruptions attributed
 * to it. Mutable counters, so the per-event accrual does not allocate.
 */
final class PoolStats {

    /** Active nodes of the job in the pool now. */
    int nodes;
    /** Node-milliseconds exposed to interruptions. */
    long nodeMillis;
    /** Interruptions attributed to the pool. */
    int interruptions;
}
