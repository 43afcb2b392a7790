package io.lifeline.domain.job.advice;

import java.util.List;

/**
 * Checkpoint-interval advice for one job, with every input it was computed from.
 *
 * @param job                      job name
 * @param currentIntervalSeconds   the job's interval now, or null when unknown
 * @param intervalSource           {@code configured} (job spec) or {@code observed} (median gap between checkpoints), or null
 * @param checkpointCostSeconds    C: median blocking save time of recent checkpoints, or null
 * @param costSamples              how many saves C was measured on
 * @param pools                    the pools the job's nodes are in
 * @param nodes                    nodes the job runs on
 * @param perNodeMtbiSeconds       observed node-time between interruptions in those pools, or null
 * @param mtbiSeconds              M = per-node MTBI / nodes, or null
 * @param interruptionsObserved    interruptions the per-node MTBI is based on
 * @param exposureNodeHours        node-hours of exposure it is based on
 * @param recoverySeconds          R: mean recovery time per interruption (0 when none observed)
 * @param youngSeconds             √(2CM), or null
 * @param dalySeconds              √(2CM) − C, or null
 * @param recommendedSeconds       the recommended interval, or null when inputs are missing
 * @param formula                  which formula the recommendation uses
 * @param dalyValid                whether C ≪ M (C ≤ M/10), where the first-order formulas hold
 * @param expectedEttrCurrent      modelled ETTR at the current interval, or null
 * @param expectedEttrRecommended  modelled ETTR at the recommended interval, or null
 * @param model                    the ETTR model used
 * @param notes                    why something is missing, or caveats
 * @param objective                the intervals that keep the job inside its ETTR objective, or null when it is under
 *                                 none
 * @param storage                  for each storage target the job writes to, whether the interval fits its bandwidth
 *                                 (empty when not known)
 */
public record IntervalAdvice(
        String job,
        Double currentIntervalSeconds,
        String intervalSource,
        Double checkpointCostSeconds,
        int costSamples,
        List<String> pools,
        int nodes,
        Double perNodeMtbiSeconds,
        Double mtbiSeconds,
        long interruptionsObserved,
        double exposureNodeHours,
        double recoverySeconds,
        Double youngSeconds,
        Double dalySeconds,
        Double recommendedSeconds,
        String formula,
        boolean dalyValid,
        Double expectedEttrCurrent,
        Double expectedEttrRecommended,
        String model,
        List<String> notes,
        ObjectiveAdvice objective,
        List<StorageFeasibility> storage) {

    public IntervalAdvice {
        notes = notes == null ? List.of() : List.copyOf(notes);
        storage = storage == null ? List.of() : List.copyOf(storage);
    }

    /** This advice, read against an objective. */
    public IntervalAdvice withObjective(ObjectiveAdvice o) {
        return new IntervalAdvice(
                job,
                currentIntervalSeconds,
                intervalSource,
                checkpointCostSeconds,
                costSamples,
                pools,
                nodes,
                perNodeMtbiSeconds,
                mtbiSeconds,
                interruptionsObserved,
                exposureNodeHours,
                recoverySeconds,
                youngSeconds,
                dalySeconds,
                recommendedSeconds,
                formula,
                dalyValid,
                expectedEttrCurrent,
                expectedEttrRecommended,
                model,
                notes,
                o,
                storage);
    }

    /** This advice, read against its storage targets, with their notes added. */
    public IntervalAdvice withStorage(List<StorageFeasibility> targets, List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new IntervalAdvice(
                job,
                currentIntervalSeconds,
                intervalSource,
                checkpointCostSeconds,
                costSamples,
                pools,
                nodes,
                perNodeMtbiSeconds,
                mtbiSeconds,
                interruptionsObserved,
                exposureNodeHours,
                recoverySeconds,
                youngSeconds,
                dalySeconds,
                recommendedSeconds,
                formula,
                dalyValid,
                expectedEttrCurrent,
                expectedEttrRecommended,
                model,
                all,
                objective,
                targets);
    }
}
