package io.lifeline.domain.replay;

/**
 * One job's history against the same history without the notice policy: what the ledger measured, and what a replay
 * of its interruptions finds the policy kept (docs/whatif.md, "Without Lifeline's actions").
 *
 * @param job                    job name ({@code namespace/name})
 * @param pool                   its pool, or null
 * @param gpus                   GPUs it held while training
 * @param interruptions          interruptions in its history
 * @param noticed                those that came with a notice (the only ones the notice policy can act on)
 * @param intervalSeconds        the job's own checkpoint interval both replays save at, or null when unknown
 * @param checkpointCostSeconds  C both replays assume
 * @param costAssumed            whether C is the configured default (no save measured)
 * @param productiveMillis       productive time the ledger measured
 * @param heldMillis             wall − waiting the ledger measured (the denominator of its ETTR)
 * @param replayEttrWith         ETTR of the replay with the notice policy on, or null when not replayed
 * @param replayEttrWithout      ETTR of the replay with the notice policy off, or null when not replayed
 * @param keptMillis             productive time of the replay with the policy on less that without it
 * @param keptGpuHours           {@code keptMillis} × GPUs, in GPU-hours
 * @param skipped                why the job was not replayed although it had a notice, or null
 */
public record JobCounterfactual(
        String job,
        String pool,
        int gpus,
        int interruptions,
        int noticed,
        Double intervalSeconds,
        double checkpointCostSeconds,
        boolean costAssumed,
        long productiveMillis,
        long heldMillis,
        Double replayEttrWith,
        Double replayEttrWithout,
        long keptMillis,
        double keptGpuHours,
        String skipped) {

    /** The job's namespace: its name up to the first slash. */
    public String namespace() {
        int slash = job.indexOf('/');
        return slash > 0 ? job.substring(0, slash) : job;
    }

    /** Whether both replays ran. */
    public boolean replayed() {
        return replayEttrWith != null || replayEttrWithout != null;
    }
}
