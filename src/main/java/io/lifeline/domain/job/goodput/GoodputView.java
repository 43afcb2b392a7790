package io.lifeline.domain.job.goodput;

import java.util.Collection;

/**
 * A job's (or a group's) wall time split into buckets, in milliseconds that add up exactly to
 * {@code wallMillis}, with the goodput ratios and the lost work priced in GPU-hours.
 *
 * <p>{@code ettr} = productive / (wall − waiting): how well the job used the time it held GPUs.
 * {@code ettrOfWall} = productive / wall: the share of the whole wall time that was useful. Both are
 * {@code null} when their denominator is zero. {@code lostGpuHours} = (lost rework + hang + recovery) in
 * GPU-hours, each moment weighted by the GPUs the job held at that moment.
 *
 * @param wallMillis               time since submission (up to the finish for ended jobs)
 * @param productiveMillis         training progress that survived
 * @param checkpointMillis         trainers blocked saving
 * @param lostReworkMillis         progress thrown away by interruptions
 * @param recoveryMillis           the three recovery phases together
 * @param recoveryDetectionMillis  recovery: interruption until the runtime reacts
 * @param recoveryRestartMillis    recovery: restart, re-admission and rendezvous
 * @param recoveryLoadMillis       recovery: checkpoint load until the first progress
 * @param rescaleMillis            planned membership changes that lost no work
 * @param startupMillis            admitted, before the first progress
 * @param waitingMillis            queued, suspended or preempted
 * @param hangMillis               hung: alive without progress, from the last progress to the restart
 * @param ettr                     productive / (wall − waiting), or null
 * @param ettrOfWall               productive / wall, or null
 * @param productiveGpuMillis      productive time in GPU-milliseconds
 * @param lostGpuMillis            (lost rework + recovery) in GPU-milliseconds
 * @param heldGpuMillis            all GPU-milliseconds held, every bucket
 * @param lostGpuHours             {@code lostGpuMillis} in GPU-hours
 * @param heldGpuHours             {@code heldGpuMillis} in GPU-hours
 */
public record GoodputView(
        long wallMillis,
        long productiveMillis,
        long checkpointMillis,
        long lostReworkMillis,
        long recoveryMillis,
        long recoveryDetectionMillis,
        long recoveryRestartMillis,
        long recoveryLoadMillis,
        long rescaleMillis,
        long startupMillis,
        long waitingMillis,
        long hangMillis,
        Double ettr,
        Double ettrOfWall,
        long productiveGpuMillis,
        long lostGpuMillis,
        long heldGpuMillis,
        double lostGpuHours,
        double heldGpuHours) {

    /** Milliseconds in one GPU-hour. */
    public static final double MILLIS_PER_HOUR = 3_600_000.0;

    /** A view with nothing in it. */
    public static final GoodputView EMPTY = of(new long[Bucket.values().length], new long[Bucket.values().length]);

    /** Builds the view from per-bucket milliseconds and GPU-milliseconds, indexed by {@link Bucket#ordinal()}. */
    public static GoodputView of(long[] ms, long[] gpuMs) {
        long held = 0;
        for (long g : gpuMs) {
            held += g;
        }
        long lostGpu = gpuMs[Bucket.LOST_REWORK.ordinal()]
                + gpuMs[Bucket.HANG.ordinal()]
                + gpuMs[Bucket.RECOVERY_DETECTION.ordinal()]
                + gpuMs[Bucket.RECOVERY_RESTART.ordinal()]
                + gpuMs[Bucket.RECOVERY_LOAD.ordinal()];
        return build(ms, gpuMs[Bucket.PRODUCTIVE.ordinal()], lostGpu, held);
    }

    /** The sum of several views (a rollup); ratios are recomputed from the summed buckets. */
    public static GoodputView sum(Collection<GoodputView> views) {
        long[] ms = new long[Bucket.values().length];
        long productiveGpu = 0;
        long lostGpu = 0;
        long held = 0;
        for (GoodputView v : views) {
            ms[Bucket.PRODUCTIVE.ordinal()] += v.productiveMillis;
            ms[Bucket.CHECKPOINT.ordinal()] += v.checkpointMillis;
            ms[Bucket.LOST_REWORK.ordinal()] += v.lostReworkMillis;
            ms[Bucket.RECOVERY_DETECTION.ordinal()] += v.recoveryDetectionMillis;
            ms[Bucket.RECOVERY_RESTART.ordinal()] += v.recoveryRestartMillis;
            ms[Bucket.RECOVERY_LOAD.ordinal()] += v.recoveryLoadMillis;
            ms[Bucket.RESCALE.ordinal()] += v.rescaleMillis;
            ms[Bucket.STARTUP.ordinal()] += v.startupMillis;
            ms[Bucket.WAITING.ordinal()] += v.waitingMillis;
            ms[Bucket.HANG.ordinal()] += v.hangMillis;
            productiveGpu += v.productiveGpuMillis;
            lostGpu += v.lostGpuMillis;
            held += v.heldGpuMillis;
        }
        return build(ms, productiveGpu, lostGpu, held);
    }

    private static GoodputView build(long[] ms, long productiveGpu, long lostGpu, long held) {
        long wall = 0;
        for (long m : ms) {
            wall += m;
        }
        long productive = ms[Bucket.PRODUCTIVE.ordinal()];
        long detection = ms[Bucket.RECOVERY_DETECTION.ordinal()];
        long restart = ms[Bucket.RECOVERY_RESTART.ordinal()];
        long load = ms[Bucket.RECOVERY_LOAD.ordinal()];
        long waiting = ms[Bucket.WAITING.ordinal()];
        Double ettr = wall - waiting > 0 ? (double) productive / (wall - waiting) : null;
        Double ettrOfWall = wall > 0 ? (double) productive / wall : null;
        return new GoodputView(
                wall,
                productive,
                ms[Bucket.CHECKPOINT.ordinal()],
                ms[Bucket.LOST_REWORK.ordinal()],
                detection + restart + load,
                detection,
                restart,
                load,
                ms[Bucket.RESCALE.ordinal()],
                ms[Bucket.STARTUP.ordinal()],
                waiting,
                ms[Bucket.HANG.ordinal()],
                ettr,
                ettrOfWall,
                productiveGpu,
                lostGpu,
                held,
                lostGpu / MILLIS_PER_HOUR,
                held / MILLIS_PER_HOUR);
    }
}
