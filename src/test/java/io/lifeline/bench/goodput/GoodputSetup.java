package io.lifeline.bench.goodput;

import java.util.List;
import java.util.Locale;

/**
 * One run of the goodput bench: the job, the costs of saving and restarting, the interruption rates and the arm's
 * fixed settings. {@link #of(int)} gives the published figures each value is taken from (see {@link #sources()}).
 *
 * @param gpus                  the job's GPUs (fixed size: a lost node is replaced, never shrunk away)
 * @param gpusPerNode           8, as on the H100 nodes of the Llama 3 run
 * @param spotShare             the share of the job's nodes on spot capacity (the rest on demand)
 * @param stepSeconds           one training step
 * @param checkpointSeconds     a synchronous save blocks training this long
 * @param nodeRestartSeconds    a restart that replaces a lost node: new pod elsewhere, rendezvous, checkpoint load
 * @param inPlaceRestartSeconds a restart on the same nodes: workers restarted by their runtime, rendezvous, load
 * @param noticeSeconds         how long before a reclaim its notice comes (AWS 120 s, GCP 30 s)
 * @param days                  simulated wall time
 * @param rateScale             multiplies every interruption rate (1 = the published rates)
 * @param seed                  draws the interruption history; the same seed gives the same history to both arms
 * @param fixedIntervalSeconds  the interval without Lifeline (and Lifeline's starting one)
 * @param processGroupTimeoutSeconds  without Lifeline, a hang ends when the collective times out
 * @param spotPrice             US dollars per GPU-hour on spot
 * @param onDemandPrice         US dollars per GPU-hour on demand
 */
record GoodputSetup(
        int gpus,
        int gpusPerNode,
        double spotShare,
        double stepSeconds,
        double checkpointSeconds,
        double nodeRestartSeconds,
        double inPlaceRestartSeconds,
        double noticeSeconds,
        double days,
        double rateScale,
        long seed,
        double fixedIntervalSeconds,
        double processGroupTimeoutSeconds,
        double spotPrice,
        double onDemandPrice) {

    /** Llama 3: 466 interruptions in 54 days of a 16,384-GPU run (419 unexpected, 47 planned). */
    static final double LLAMA3_INTERRUPTIONS = 466;

    static final double LLAMA3_DAYS = 54;
    static final double LLAMA3_GPUS = 16_384;
    /** AWS Spot Instance Advisor's highest band: more than 20 % of instances interrupted a month. */
    static final double SPOT_RECLAIMS_PER_INSTANCE_MONTH = 0.20;

    /** The published figures for a job of {@code gpus} GPUs (1,024: a 70B model; 16,384: Llama 3 405B). */
    static GoodputSetup of(int gpus) {
        boolean large = gpus >= 8_192;
        return new GoodputSetup(
                gpus,
                8,
                0.5,
                // Llama 3 405B: 16M-token batches at about 400 TFLOPS per GPU: 6 x 405e9 x 16e6 / (16,384 x 400e12).
                // A 70B model with 4M-token batches on 1,024 GPUs: 6 x 70e9 x 4e6 / (1,024 x 400e12).
                large ? 5.9 : 4.1,
                // State of 14 bytes per parameter (bf16 weights, fp32 master weights and two Adam moments).
                // 70B: about 1 TB at 10 GB/s, 100 s; 405B: 5.7 TB at Llama 3's 2 TB/s of sustained storage write.
                large ? 3 : 100,
                // 90-300 s for a full restart of a job on Kubernetes, 53-115 s for a pod restart (TorchFT on
                // Kubernetes): the middle of each. Their ratio, 0.43, is close to the 0.405 of this project's own
                // real drills (recovery_seconds_in_place over recovery_seconds_pod_recreate).
                195,
                84,
                120,
                54,
                1,
                20_261_207L,
                1_800,
                600,
                // lifeline.spot.* has no built-in price: these are its documented example (docs/configuration.md),
                // an AWS p5.48xlarge's $98.32 an hour on demand over its 8 GPUs, and its spot price.
                3.90,
                12.29);
    }

    GoodputSetup withDays(double d) {
        return new GoodputSetup(
                gpus,
                gpusPerNode,
                spotShare,
                stepSeconds,
                checkpointSeconds,
                nodeRestartSeconds,
                inPlaceRestartSeconds,
                noticeSeconds,
                d,
                rateScale,
                seed,
                fixedIntervalSeconds,
                processGroupTimeoutSeconds,
                spotPrice,
                onDemandPrice);
    }

    GoodputSetup withRateScale(double s) {
        return new GoodputSetup(
                gpus,
                gpusPerNode,
                spotShare,
                stepSeconds,
                checkpointSeconds,
                nodeRestartSeconds,
                inPlaceRestartSeconds,
                noticeSeconds,
                days,
                s,
                seed,
                fixedIntervalSeconds,
                processGroupTimeoutSeconds,
                spotPrice,
                onDemandPrice);
    }

    GoodputSetup withNotice(double seconds) {
        return new GoodputSetup(
                gpus,
                gpusPerNode,
                spotShare,
                stepSeconds,
                checkpointSeconds,
                nodeRestartSeconds,
                inPlaceRestartSeconds,
                seconds,
                days,
                rateScale,
                seed,
                fixedIntervalSeconds,
                processGroupTimeoutSeconds,
                spotPrice,
                onDemandPrice);
    }

    GoodputSetup withSeed(long s) {
        return new GoodputSetup(
                gpus,
                gpusPerNode,
                spotShare,
                stepSeconds,
                checkpointSeconds,
                nodeRestartSeconds,
                inPlaceRestartSeconds,
                noticeSeconds,
                days,
                rateScale,
                s,
                fixedIntervalSeconds,
                processGroupTimeoutSeconds,
                spotPrice,
                onDemandPrice);
    }

    GoodputSetup withCheckpointSeconds(double c) {
        return new GoodputSetup(
                gpus,
                gpusPerNode,
                spotShare,
                stepSeconds,
                c,
                nodeRestartSeconds,
                inPlaceRestartSeconds,
                noticeSeconds,
                days,
                rateScale,
                seed,
                fixedIntervalSeconds,
                processGroupTimeoutSeconds,
                spotPrice,
                onDemandPrice);
    }

    int nodes() {
        return gpus / gpusPerNode;
    }

    int spotNodes() {
        return (int) Math.round(nodes() * spotShare);
    }

    /** Llama 3's interruptions per GPU-second, all causes. */
    static double llama3PerGpuSecond() {
        return LLAMA3_INTERRUPTIONS / (LLAMA3_DAYS * 86_400 * LLAMA3_GPUS);
    }

    /** Reclaims per spot node-second. */
    static double reclaimsPerNodeSecond() {
        return SPOT_RECLAIMS_PER_INSTANCE_MONTH / (30 * 86_400);
    }

    /** The GPUs' price per hour, spot and on-demand nodes together. */
    double pricePerGpuHour() {
        double spot = (double) spotNodes() / nodes();
        return spot * spotPrice + (1 - spot) * onDemandPrice;
    }

    /** Where each figure comes from, as printed with the results. */
    List<String> sources() {
        return List.of(
                "failures: Llama 3 (The Llama 3 Herd of Models, 2024, section 3.3.4 and table 5): 466 interruptions"
                        + " in 54 days on 16,384 GPUs, 47 planned, 419 unexpected: 356 hardware (faulty GPU 148,"
                        + " HBM3 72, unplanned host maintenance 32, switch/cable 35, SRAM 19, GPU system processor 17,"
                        + " NIC 7, silent data corruption 6, thermal 6, SSD 3, power 3, chassis 2, IO board 2, CPU 2,"
                        + " memory 2), 56 software (bugs 54, dependencies 2), 7 hangs (NCCL watchdog timeouts)",
                "hangs: Llama 3's 7 NCCL watchdog timeouts of 419 unexpected interruptions (1.7 %); ByteRobust"
                        + " does not give a count per cause, so Llama 3's share is used",
                String.format(
                        Locale.ROOT,
                        "spot: %d of %d nodes; reclaims at AWS Spot Instance Advisor's top band (> 20 %% of"
                                + " instances a month, taken as 20 %%), notice %.0f s (AWS 120 s, GCP 30 s)",
                        spotNodes(),
                        nodes(),
                        noticeSeconds),
                "planned interruptions (47 of 466) come with the same notice as a reclaim",
                String.format(
                        Locale.ROOT,
                        "step %.1f s, save %.0f s (blocking), restart replacing a node %.0f s, in place %.0f s",
                        stepSeconds,
                        checkpointSeconds,
                        nodeRestartSeconds,
                        inPlaceRestartSeconds),
                String.format(
                        Locale.ROOT,
                        "without Lifeline: torchrun restarts, a save every %.0f min, notices ignored, a hang ends"
                                + " at the process group's timeout (%.0f min)",
                        fixedIntervalSeconds / 60,
                        processGroupTimeoutSeconds / 60),
                "stragglers: left out; Lifeline finds them but has no remedy policy, so both arms would lose the"
                        + " same");
    }
}
