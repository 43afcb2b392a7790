package io.lifeline.domain.job;

import io.lifeline.domain.job.advice.IntervalAdvisor;
import io.lifeline.domain.job.goodput.GoodputRollup;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.RollupDimension;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Goodput and interruption rates summed over jobs (at read time, never per event). */
final class JobRollups {

    private JobRollups() {}

    static List<GoodputRollup> rollup(Collection<Job> jobs, RollupDimension dim, long now) {
        Map<String, List<GoodputView>> views = new TreeMap<>();
        Map<String, Long> exposure = new TreeMap<>();
        Map<String, Long> interruptions = new TreeMap<>();
        for (Job job : jobs) {
            String key = keyOf(job, dim);
            views.computeIfAbsent(key, k -> new ArrayList<>()).add(job.ledger.view(now));
            long pending = exposed(job) ? job.ledger.pendingMillis(now) : 0;
            if (dim == RollupDimension.POOL || dim == RollupDimension.CAPACITY_TYPE) {
                Map<String, PoolStats> stats = dim == RollupDimension.POOL ? job.pools : job.capacities;
                stats.forEach((k, p) -> {
                    exposure.merge(k, p.nodeMillis + pending * p.nodes, Long::sum);
                    interruptions.merge(k, (long) p.interruptions, Long::sum);
                });
            } else {
                long total = 0;
                for (PoolStats p : job.pools.values()) {
                    total += p.nodeMillis + pending * p.nodes;
                }
                exposure.merge(key, total, Long::sum);
                interruptions.merge(key, (long) job.incidents.interruptions(), Long::sum);
            }
        }
        TreeSet<String> keys = new TreeSet<>(views.keySet());
        keys.addAll(exposure.keySet());
        keys.addAll(interruptions.keySet());
        List<GoodputRollup> out = new ArrayList<>(keys.size());
        for (String key : keys) {
            List<GoodputView> group = views.getOrDefault(key, List.of());
            long ms = exposure.getOrDefault(key, 0L);
            long count = interruptions.getOrDefault(key, 0L);
            out.add(new GoodputRollup(
                    dim,
                    key,
                    group.size(),
                    GoodputView.sum(group),
                    count,
                    ms / GoodputView.MILLIS_PER_HOUR,
                    count == 0 ? null : ms / 1000.0 / count));
        }
        return out;
    }

    /** The exposure and interruptions of the given pools, over all jobs: the inputs of a per-node MTBI. */
    static IntervalAdvisor.Exposure exposure(Collection<Job> jobs, Collection<String> pools, long now) {
        long ms = 0;
        long count = 0;
        for (Job job : jobs) {
            long pending = exposed(job) ? job.ledger.pendingMillis(now) : 0;
            for (String pool : pools) {
                PoolStats p = job.pools.get(pool);
                if (p != null) {
                    ms += p.nodeMillis + pending * p.nodes;
                    count += p.interruptions;
                }
            }
        }
        return new IntervalAdvisor.Exposure(List.copyOf(pools), ms / 1000.0, count);
    }

    /**
     * The exposure and interruptions of one capacity type ({@code spot}, {@code on-demand}) within the given pools,
     * over all jobs: a pool's reclaim rate for that capacity type.
     */
    static IntervalAdvisor.Exposure exposure(
            Collection<Job> jobs, Collection<String> pools, String capacity, long now) {
        long ms = 0;
        long count = 0;
        for (Job job : jobs) {
            long pending = exposed(job) ? job.ledger.pendingMillis(now) : 0;
            for (String pool : pools) {
                PoolStats p = job.poolCapacities.get(Job.poolCapacityKey(pool, capacity));
                if (p != null) {
                    ms += p.nodeMillis + pending * p.nodes;
                    count += p.interruptions;
                }
            }
        }
        return new IntervalAdvisor.Exposure(List.copyOf(pools), ms / 1000.0, count);
    }

    private static boolean exposed(Job job) {
        return job.state == JobState.RUNNING || job.state == JobState.RESCALING;
    }

    private static String keyOf(Job job, RollupDimension dim) {
        switch (dim) {
            case POOL:
                return job.primaryPool != null ? job.primaryPool : Job.UNKNOWN_POOL;
            case CAPACITY_TYPE:
                return job.primaryCapacity != null ? job.primaryCapacity : Job.UNKNOWN_POOL;
            case NAMESPACE:
                return job.namespace;
            default:
                return "fleet";
        }
    }
}
