package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionPlanner;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.job.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What the capacity-grow policy may count on. A node that has just become ready is not free yet: the scheduler
 * places the pods already waiting for it (a job growing back on its own, one waiting below its minimum) within a
 * minute or two, and a growth planned on it would wait for a rendezvous the pool cannot hold. And a growth takes
 * what the job's trainers need for it: a checkpoint (a large asynchronous one uploads for minutes before the workers
 * restart), the restart and the rendezvous, so its deadline comes from the job's own save time.
 */
final class CapacityGrowth {

    /** How long a ready node must have been idle before a growth counts on it. */
    static final Duration SETTLE = Duration.ofMinutes(2);
    /** Allowance for the restart and the rendezvous of a growth, beyond its checkpoints. */
    static final long RESTART_SECONDS = 300;

    private CapacityGrowth() {}

    /** Ready, uncordoned nodes of a pool without a notice that run no job and have been ready for {@link #SETTLE}. */
    static long freeNodes(Jobs jobs, Fleet fleet, String pool, Instant now) {
        long free = 0;
        for (NodeSummary n : fleet.nodes(new NodeQuery(pool, null, NodeLifecycle.READY, null))) {
            boolean settled =
                    n.stateSince() == null || !n.stateSince().plus(SETTLE).isAfter(now);
            if (settled
                    && !n.cordoned()
                    && !n.noticeActive()
                    && !n.noticeExpired()
                    && jobs.jobsOn(n.name()).isEmpty()) {
                free++;
            }
        }
        return free;
    }

    /** The rescale's parameters: the workers, and a deadline of two of the job's saves plus the restart. */
    static Map<String, String> params(Jobs jobs, Fleet fleet, String job, long workers) {
        long save = new ActionPlanner(jobs, fleet).checkpointSeconds(job);
        return Map.of("workers", Long.toString(workers), "deadlineSeconds", Long.toString(RESTART_SECONDS + 2 * save));
    }
}
