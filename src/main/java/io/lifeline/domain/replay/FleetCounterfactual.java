package io.lifeline.domain.replay;

import java.time.Instant;
import java.util.List;

/**
 * The recent jobs' ETTR as measured, and as the same interruption history would have given without Lifeline's notice
 * policy (docs/whatif.md, "Without Lifeline's actions").
 *
 * @param computedAt          when the replays ran, or null before the first
 * @param jobs                jobs counted
 * @param jobsNoticed         of them, jobs with at least one announced interruption
 * @param jobsActed           of those, jobs the notice policy acts on (mode {@code on}): only their gain is counted
 * @param ettrWith            Σ productive / Σ (wall − waiting) of the ledger, or null without time held
 * @param ettrWithout         the same with the productive time the replays attribute to the policy taken off, or null
 * @param keptHours           training time the policy kept, summed over jobs (each at most its measured productive time)
 * @param keptGpuHours        the same in GPU-hours
 * @param noticePolicyMode    the notice policy's default mode ({@code on}, {@code dry-run}, {@code off}), or null
 * @param notes               assumptions made and what could not be counted
 * @param perJob              the jobs with notices the policy acts on, the largest gain first
 */
public record FleetCounterfactual(
        Instant computedAt,
        int jobs,
        int jobsNoticed,
        int jobsActed,
        Double ettrWith,
        Double ettrWithout,
        double keptHours,
        double keptGpuHours,
        String noticePolicyMode,
        List<String> notes,
        List<JobCounterfactual> perJob) {

    public FleetCounterfactual {
        notes = List.copyOf(notes);
        perJob = List.copyOf(perJob);
    }

    /** Nothing computed yet. */
    public static FleetCounterfactual none(String noticePolicyMode) {
        return new FleetCounterfactual(
                null, 0, 0, 0, null, null, 0, 0, noticePolicyMode, List.of("not computed yet"), List.of());
    }
}
