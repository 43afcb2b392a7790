package io.lifeline.domain.replay;

import io.lifeline.domain.job.goodput.GoodputView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;

/**
 * The gain of Lifeline's notice policy on a job's real history: its interruptions replayed twice through the what-if
 * simulator at the job's own checkpoint interval and measured cost, the notice policy on and off, everything else
 * alike. The difference of the two replays' productive time is what the policy kept; taken off the ledger's own
 * productive time it gives the ETTR without the policy. Anchoring on the ledger keeps what the replay does not model
 * (asynchronous uploads, rescales, hangs) out of the difference: only the policy's effect comes from the model.
 */
public final class Counterfactual {

    private Counterfactual() {}

    /**
     * One job. Replays only a job with at least one announced interruption: without a notice the policy changes
     * nothing, and the job costs nothing to answer.
     *
     * @param finished whether the job has ended
     * @param stop     asked during the replays; true cancels with {@link ReplayCancelledException}
     */
    public static JobCounterfactual of(WhatIfJob job, boolean finished, WhatIfLimits limits, BooleanSupplier stop) {
        GoodputView actual = job.actual();
        long held = Math.max(0, actual.wallMillis() - actual.waitingMillis());
        int noticed = (int) job.interruptions().stream()
                .filter(i -> i.noticeLeadMillis() != null)
                .count();
        boolean assumed = job.checkpointCostSeconds() == null;
        double c = assumed ? limits.defaultCheckpointCostSeconds() : job.checkpointCostSeconds();
        Double tau = job.currentIntervalSeconds();
        String skipped = null;
        if (noticed > 0 && (tau == null || !(tau > 0))) {
            skipped = "its checkpoint interval is not known";
        } else if (noticed > 0
                && WhatIfSimulator.events(
                                job.windowSeconds(), tau, c, job.interruptions().size() * 2)
                        > limits.maxEventsPerScenario()) {
            skipped = "its replay would take more than lifeline.whatif.max-events-per-scenario events";
        }
        if (noticed == 0 || skipped != null) {
            return new JobCounterfactual(
                    job.job(),
                    job.pool(),
                    job.gpus(),
                    job.interruptions().size(),
                    noticed,
                    tau,
                    c,
                    assumed,
                    actual.productiveMillis(),
                    held,
                    null,
                    null,
                    0,
                    0,
                    skipped);
        }
        GoodputView on = replay(job, finished, new WhatIfScenario(tau, "current", c, null, null, true, null), stop);
        GoodputView off = replay(job, finished, new WhatIfScenario(tau, "current", c, null, null, false, null), stop);
        long kept = on.productiveMillis() - off.productiveMillis();
        return new JobCounterfactual(
                job.job(),
                job.pool(),
                job.gpus(),
                job.interruptions().size(),
                noticed,
                tau,
                c,
                assumed,
                actual.productiveMillis(),
                held,
                on.ettr(),
                off.ettr(),
                kept,
                kept * (double) job.gpus() / GoodputView.MILLIS_PER_HOUR,
                null);
    }

    private static String jobs(int n) {
        return n == 1 ? "1 job" : n + " jobs";
    }

    private static GoodputView replay(WhatIfJob job, boolean finished, WhatIfScenario s, BooleanSupplier stop) {
        return WhatIfSimulator.run(
                job.job(), job.start(), job.end(), finished, job.gpus(), job.nodes(), job.interruptions(), s, stop);
    }

    /**
     * The jobs together.
     *
     * @param jobs              the jobs to count (already limited to what the reader may see)
     * @param computedAt        when their replays ran, or null
     * @param acts              whether the notice policy acts on a job of this namespace and pool (mode {@code on});
     *                          a job it does not act on kept nothing, whatever its replay finds
     * @param noticePolicyMode  the policy's default mode, as shown
     */
    public static FleetCounterfactual fleet(
            List<JobCounterfactual> jobs,
            Instant computedAt,
            BiPredicate<String, String> acts,
            String noticePolicyMode) {
        long productive = 0;
        long held = 0;
        long keptMillis = 0;
        double keptGpuHours = 0;
        int noticed = 0;
        int acted = 0;
        int unknown = 0;
        int assumed = 0;
        List<JobCounterfactual> counted = new ArrayList<>();
        for (JobCounterfactual j : jobs) {
            productive += j.productiveMillis();
            held += j.heldMillis();
            if (j.noticed() == 0) {
                continue;
            }
            noticed++;
            if (j.skipped() != null) {
                unknown++;
            }
            if (j.replayed() && j.costAssumed()) {
                assumed++;
            }
            if (acts.test(j.namespace(), j.pool())) {
                acted++;
                // Never more than the job's measured productive time: early in a run the ledger may not have
                // counted yet what the replay already saw kept.
                long kept = Math.min(j.keptMillis(), j.productiveMillis());
                keptMillis += kept;
                keptGpuHours += kept * (double) j.gpus() / GoodputView.MILLIS_PER_HOUR;
                counted.add(j);
            }
        }
        List<String> notes = new ArrayList<>();
        if (noticed > acted) {
            notes.add((noticed - acted) + " of the " + jobs(noticed) + " with notices: not under the notice policy "
                    + "(mode off or dry-run): Lifeline did not act on them, so nothing is counted for them");
        }
        if (unknown > 0) {
            notes.add(jobs(unknown) + " with notices could not be replayed (interval unknown or replay too long): "
                    + "counted as gaining nothing");
        }
        if (assumed > 0) {
            notes.add(jobs(assumed) + " measured no save: the replays assume the configured default checkpoint cost");
        }
        counted.sort(Comparator.comparingLong(JobCounterfactual::keptMillis).reversed());
        Double with = held > 0 ? Double.valueOf(productive / (double) held) : null;
        Double without = held > 0 ? Double.valueOf((productive - keptMillis) / (double) held) : null;
        return new FleetCounterfactual(
                computedAt,
                jobs.size(),
                noticed,
                acted,
                with,
                without,
                keptMillis / GoodputView.MILLIS_PER_HOUR,
                keptGpuHours,
                noticePolicyMode == null ? null : noticePolicyMode.toLowerCase(Locale.ROOT),
                notes,
                counted);
    }
}
