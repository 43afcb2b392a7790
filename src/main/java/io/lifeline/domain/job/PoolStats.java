package io.lifeline.domain.job;

import java.util.HashMap;
import java.util.Map;

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

    static PoolStats restore(SavedJob.Pool saved) {
        PoolStats p = new PoolStats();
        p.nodes = saved.nodes();
        p.nodeMillis = saved.nodeMillis();
        p.interruptions = saved.interruptions();
        return p;
    }

    static Map<String, SavedJob.Pool> save(Map<String, PoolStats> stats) {
        Map<String, SavedJob.Pool> out = new HashMap<>(stats.size() * 2);
        stats.forEach((k, p) -> out.put(k, new SavedJob.Pool(p.nodes, p.nodeMillis, p.interruptions)));
        return out;
    }
}
