package io.lifeline.domain.policy.colocation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What lending cost, per job and per pool, from the rescales the co-location policy carried out: a job's lending
 * starts with a shrink and ends when it is back at the size it had before (or grows as far as it gets and stays
 * there), and it yields {@code nodes lent × GPUs per node × time}. Rework lost is what each rescale threw away: zero
 * when a checkpoint came first and the trainers held still until the restart.
 */
public final class ColocationLedger {

    private ColocationLedger() {}

    /**
     * One rescale the policy carried out.
     *
     * @param job           {@code namespace/name}
     * @param pool          the job's pool
     * @param at            when the workers were scaled
     * @param fromNodes     nodes before
     * @param toNodes       nodes after
     * @param gpusPerNode   GPUs of each node the job runs on
     * @param reworkGpuHours work since the newest checkpoint, thrown away by the restart
     * @param checkpointed  whether a checkpoint completed just before (checkpoint first)
     * @param actionId      the action
     */
    public record Rescale(
            String job,
            String pool,
            Instant at,
            int fromNodes,
            int toNodes,
            int gpusPerNode,
            double reworkGpuHours,
            boolean checkpointed,
            String actionId) {}

    /**
     * One lending of one job.
     *
     * @param openedAt        the shrink
     * @param closedAt        when it was back at its size, or null while it lends
     * @param nodesBefore     its size before the shrink
     * @param gpusLentNow     GPUs lent now (0 once closed)
     * @param maxGpusLent     most GPUs lent at once
     * @param gpuHoursYielded GPU-hours lent so far (up to {@code now} while open)
     * @param reworkGpuHours  rework lost by its rescales
     * @param checkpointFirst whether every rescale came after a checkpoint
     * @param actions         the rescales' action ids, in order
     */
    public record Episode(
            String job,
            String pool,
            Instant openedAt,
            Instant closedAt,
            int nodesBefore,
            int gpusLentNow,
            int maxGpusLent,
            double gpuHoursYielded,
            double reworkGpuHours,
            boolean checkpointFirst,
            List<String> actions) {

        public Episode {
            actions = List.copyOf(actions);
        }
    }

    /** A pool's totals: GPUs lent now and what every lending cost so far. */
    public record PoolCost(
            String pool,
            int gpusLentNow,
            int jobsLendingNow,
            int episodes,
            double gpuHoursYielded,
            double reworkGpuHours) {}

    /** Episodes of every job, oldest first; {@code now} ends the open ones' accounting. */
    public static List<Episode> episodes(List<Rescale> rescales, Instant now) {
        Map<String, List<Rescale>> byJob = new LinkedHashMap<>();
        rescales.stream()
                .sorted(Comparator.comparing(Rescale::at))
                .forEach(r ->
                        byJob.computeIfAbsent(r.job(), k -> new ArrayList<>()).add(r));
        List<Episode> out = new ArrayList<>();
        byJob.values().forEach(list -> out.addAll(ofJob(list, now)));
        out.sort(Comparator.comparing(Episode::openedAt));
        return out;
    }

    /** Totals per pool, by pool name. */
    public static List<PoolCost> pools(List<Episode> episodes) {
        Map<String, double[]> sums = new TreeMap<>();
        for (Episode e : episodes) {
            double[] s = sums.computeIfAbsent(e.pool(), k -> new double[5]);
            s[0] += e.gpusLentNow();
            s[1] += e.closedAt() == null ? 1 : 0;
            s[2] += 1;
            s[3] += e.gpuHoursYielded();
            s[4] += e.reworkGpuHours();
        }
        List<PoolCost> out = new ArrayList<>();
        sums.forEach(
                (pool, s) -> out.add(new PoolCost(pool, (int) s[0], (int) s[1], (int) s[2], round(s[3]), round(s[4]))));
        return out;
    }

    private static List<Episode> ofJob(List<Rescale> list, Instant now) {
        List<Episode> out = new ArrayList<>();
        Open open = null;
        for (Rescale r : list) {
            if (open == null) {
                if (r.toNodes() >= r.fromNodes()) {
                    continue; // a grow with nothing lent: the job was smaller for another reason
                }
                open = new Open(r);
                continue;
            }
            open.accrue(r.at());
            open.apply(r);
            if (r.toNodes() >= open.nodesBefore) {
                out.add(open.close(r.at()));
                open = null;
            }
        }
        if (open != null) {
            open.accrue(now);
            out.add(open.episode(null));
        }
        return out;
    }

    /** A lending in progress, while the rescales are read. */
    private static final class Open {
        final String job;
        final String pool;
        final Instant openedAt;
        final int nodesBefore;
        final int gpusPerNode;
        final List<String> actions = new ArrayList<>();
        int nodes;
        int maxLent;
        double gpuHours;
        double rework;
        boolean checkpointFirst = true;
        Instant since;

        Open(Rescale first) {
            job = first.job();
            pool = first.pool();
            openedAt = first.at();
            nodesBefore = first.fromNodes();
            gpusPerNode = first.gpusPerNode();
            since = first.at();
            nodes = first.fromNodes();
            apply(first);
        }

        void apply(Rescale r) {
            nodes = r.toNodes();
            maxLent = Math.max(maxLent, lent());
            rework += r.reworkGpuHours();
            checkpointFirst &= r.checkpointed();
            actions.add(r.actionId());
        }

        void accrue(Instant until) {
            if (until.isAfter(since)) {
                gpuHours += lent() * Duration.between(since, until).toMillis() / 3_600_000.0;
                since = until;
            }
        }

        int lent() {
            return Math.max(0, nodesBefore - nodes) * gpusPerNode;
        }

        Episode close(Instant at) {
            nodes = Math.max(nodes, nodesBefore);
            return episode(at);
        }

        Episode episode(Instant closedAt) {
            return new Episode(
                    job,
                    pool,
                    openedAt,
                    closedAt,
                    nodesBefore,
                    closedAt == null ? lent() : 0,
                    maxLent,
                    round(gpuHours),
                    round(rework),
                    checkpointFirst,
                    actions);
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
