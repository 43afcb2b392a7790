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

    private JobRollups() {
    }

    static List<GoodputRollup> rollup(Collection<Job> jobs, RollupDimension dim, long now) {
        Map<String, List<GoodputView>> views = new TreeMap<>();
        Map<String, Long> exposure = new TreeMap<>();
        Map<String, Long> interruptions = new TreeMap<>();
        for (Job job : jobs) {
            String key = keyOf(job, dim);
            views.computeIfAbsent(key, k -> new ArrayList<>()).add(job.ledger.view(now));
            long pending = exposed(job) ? job.ledger.pendingMillis(now) : 0;
            if (dim == RollupDimension.POOL) {
                add(exposure, interruptions, job.exposureByPool, job.interruptionsByPool, job.poolNodes, pending);
            } else if (dim == RollupDimension.CAPACITY_TYPE) {
                add(exposure, interruptions, job.exposureByCapacity, job.interruptionsByCapacity, job.capacityNodes,
                        pending);
            } else {
                long total = pending * job.membership.activeNodeCount();
                for (long v : job.exposureByPool.values()) {
                    total += v;
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
            out.add(new GoodputRollup(dim, key, group.size(), GoodputView.sum(group), count,
                    ms / GoodputView.MILLIS_PER_HOUR, count == 0 ? null : ms / 1000.0 / count));
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
                ms += job.exposureByPool.getOrDefault(pool, 0L) + pending * job.poolNodes.getOrDefault(pool, 0);
                count += job.interruptionsByPool.getOrDefault(pool, 0);
            }
        }
        return new IntervalAdvisor.Exposure(List.copyOf(pools), ms / 1000.0, count);
    }

    private static boolean exposed(Job job) {
        return job.state == JobState.RUNNING || job.state == JobState.RESCALING;
    }

    private static void add(Map<String, Long> exposure, Map<String, Long> interruptions, Map<String, Long> jobExposure,
                            Map<String, Integer> jobInterruptions, Map<String, Integer> nodesNow, long pending) {
        jobExposure.forEach((k, v) -> exposure.merge(k, v, Long::sum));
        nodesNow.forEach((k, n) -> exposure.merge(k, pending * n, Long::sum));
        jobInterruptions.forEach((k, v) -> interruptions.merge(k, (long) v, Long::sum));
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
