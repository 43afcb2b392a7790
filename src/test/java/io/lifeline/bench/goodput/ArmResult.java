package io.lifeline.bench.goodput;

import io.lifeline.bench.goodput.InterruptionHistory.Cause;
import io.lifeline.domain.job.goodput.GoodputView;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one arm's run gave: the simulator's ground truth and Lifeline's ledger of the same run.
 *
 * @param arm                 {@code with-lifeline} or {@code without-lifeline}
 * @param wallSeconds         the run's wall time
 * @param usefulSeconds       the steps that survived times the step time (ground truth)
 * @param checkpointSeconds   training blocked saving
 * @param lost                by cause: {rework thrown away, restart downtime, hung} in seconds
 * @param interruptions       by cause: how many stopped training
 * @param saves               saves started
 * @param finalIntervalSeconds the interval the trainer used at the end
 * @param ledger              Lifeline's goodput ledger for the job at the end
 * @param actions             Lifeline's actions carried out, by policy and kind
 * @param refusals            decisions the planner refused, with its reason
 * @param events              events applied to the model
 */
record ArmResult(
        String arm,
        GoodputSetup setup,
        long wallSeconds,
        double usefulSeconds,
        long checkpointSeconds,
        Map<Cause, double[]> lost,
        Map<Cause, Integer> interruptions,
        long saves,
        double finalIntervalSeconds,
        GoodputView ledger,
        Map<String, Integer> actions,
        List<String> refusals,
        long events) {

    ArmResult {
        Map<Cause, double[]> copy = new EnumMap<>(Cause.class);
        lost.forEach((k, v) -> copy.put(k, v.clone()));
        lost = copy;
        // Sorted copies: the bench's JSON lists them in a stable order from run to run.
        Map<Cause, Integer> counts = new EnumMap<>(Cause.class);
        counts.putAll(interruptions);
        interruptions = Collections.unmodifiableMap(counts);
        actions = Collections.unmodifiableSortedMap(new TreeMap<>(actions));
        refusals = List.copyOf(refusals);
    }

    /** Ground truth: useful time over wall time (the job holds all its GPUs throughout). */
    double ettr() {
        return usefulSeconds / wallSeconds;
    }

    double ledgerEttr() {
        return ledger.ettrOfWall() == null ? 0 : ledger.ettrOfWall();
    }

    /** The ledger's error against the ground truth, in percentage points. */
    double ledgerErrorPp() {
        return Math.abs(ledgerEttr() - ettr()) * 100;
    }

    /** GPU-hours a cause cost (rework, restarts and hangs together). */
    double lostGpuHours(Cause c) {
        double[] l = lost.get(c);
        return (l[0] + l[1] + l[2]) * setup.gpus() / 3600;
    }

    double checkpointGpuHours() {
        return checkpointSeconds * (double) setup.gpus() / 3600;
    }

    /** Money per GPU-hour of useful training: what the GPUs cost over what was useful of them. */
    double costPerUsefulGpuHour() {
        return setup.pricePerGpuHour() / ettr();
    }

    /** Seconds accounted for: useful, checkpoint and every lost second; equals the wall time. */
    double accountedSeconds(double progressLeftOver) {
        double sum = usefulSeconds + checkpointSeconds + progressLeftOver;
        for (double[] l : lost.values()) {
            sum += l[0] + l[1] + l[2];
        }
        return sum;
    }
}
