package io.lifeline.demo;

import java.util.Iterator;
import java.util.List;

/**
 * The scheduler's part: hands free nodes to jobs, highest priority (scenario order) first. A pending job is
 * admitted once min nodes are free; a job waiting below min takes what frees up; a running job below its
 * target grows when capacity appears. Free nodes are kept per pool, so a pass costs one look per job.
 */
final class Placement {

    private final SimContext ctx;
    private final List<SimJob> jobs;
    private boolean passing;
    private boolean again;

    Placement(SimContext ctx, List<SimJob> jobs) {
        this.ctx = ctx;
        this.jobs = jobs;
    }

    /** Free nodes appeared or a job needs more: hand capacity out. Re-entrant calls fold into one more pass. */
    void capacityChanged() {
        if (passing) {
            again = true;
            return;
        }
        passing = true;
        try {
            do {
                again = false;
                pass();
            } while (again);
        } finally {
            passing = false;
        }
    }

    private void pass() {
        for (SimJob job : jobs) {
            int want = job.target - job.held();
            switch (job.phase) {
                case PENDING -> {
                    if (freeFor(job) >= job.spec.minNodes()) {
                        reserve(job, job.target);
                        ctx.trainer.admitted(job);
                    }
                }
                case WAITING -> {
                    if (want > 0 && freeFor(job) > 0) {
                        reserve(job, want);
                        if (job.held() >= job.spec.minNodes()) {
                            ctx.trainer.capacityBack(job);
                        }
                    }
                }
                case STARTING, RESTARTING -> {
                    if (want > 0 && freeFor(job) > 0) {
                        reserve(job, want);
                    }
                }
                case RUNNING -> {
                    if (want > 0 && freeFor(job) > 0) {
                        reserve(job, want);
                        ctx.trainer.grow(job);
                    }
                }
                default -> {}
            }
        }
    }

    /** Free nodes in the job's pools. */
    int freeFor(SimJob job) {
        int n = 0;
        for (PoolState p : job.pools) {
            n += p.free.size();
        }
        return n;
    }

    /** Moves up to {@code count} free nodes of the job's pools (in pool order) into its reserved list. */
    void reserve(SimJob job, int count) {
        int left = count;
        for (PoolState p : job.pools) {
            Iterator<SimNode> it = p.free.iterator();
            while (left > 0 && it.hasNext()) {
                SimNode n = it.next();
                it.remove();
                n.job = job;
                n.inWorld = false;
                job.reserved.add(n);
                left--;
            }
        }
    }

    /** Gives a node back: it is free again if it is still ready. */
    void release(SimNode n) {
        n.job = null;
        n.inWorld = false;
        n.pod = null;
        n.pool.refresh(n);
    }
}
