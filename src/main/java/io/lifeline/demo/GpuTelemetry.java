package io.lifeline.demo;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;

/**
 * Plausible dcgm-exporter samples. What a GPU does (training, saving, loading a checkpoint, holding memory
 * while paused, idle) sets its utilisation, power and memory; temperature follows with thermal inertia, so
 * curves are smooth. One call samples the 8 GPUs of a node: no per-GPU scheduling.
 */
final class GpuTelemetry {

    /** Thermal time constant of a GPU under a heat sink, seconds. */
    private static final double THERMAL_TAU_S = 90;

    private static final Long ZERO = 0L;

    /** What the GPU is doing, which sets the sample's levels. */
    enum Activity {
        TRAINING(96, 2.5, 0.82, 1.0, 67),
        SAVING(18, 8, 0.28, 1.0, 52),
        LOADING(35, 12, 0.35, 0.85, 48),
        HOLDING(1, 0.8, 0.08, 1.0, 41),
        IDLE(0, 0, 0, 0, 34);

        final double util;
        final double utilSd;
        /** Power as a share of the span from idle draw to the board limit. */
        final double powerShare;
        /** Memory as a share of the job's footprint. */
        final double memoryShare;

        final double temperature;

        Activity(double util, double utilSd, double powerShare, double memoryShare, double temperature) {
            this.util = util;
            this.utilSd = utilSd;
            this.powerShare = powerShare;
            this.memoryShare = memoryShare;
            this.temperature = temperature;
        }
    }

    private final SimContext ctx;
    private final double alpha;

    GpuTelemetry(SimContext ctx) {
        this.ctx = ctx;
        this.alpha = 1 - Math.exp(-ctx.scenario.telemetryIntervalSeconds() / THERMAL_TAU_S);
    }

    void sample(SimNode n) {
        GpuModel model = n.pool.model;
        SimJob job = n.inWorld ? n.job : null;
        Activity busy = job == null ? Activity.IDLE : activity(job);
        int procs = job == null ? 0 : job.spec.procsPerNode();
        String pod = job == null ? null : n.pod;
        String namespace = job == null ? null : job.spec.namespace();
        Rng rng = ctx.rng;
        for (int i = 0; i < n.uuids.length; i++) {
            Activity a = i < procs ? busy : Activity.IDLE;
            double util = clamp(a.util + rng.noise(a.utilSd), 0, 100);
            double span = model.maxPowerW() - model.idlePowerW();
            double power = clamp(
                    model.idlePowerW() + span * a.powerShare + rng.noise(a == Activity.IDLE ? 2 : span * 0.04),
                    model.idlePowerW() * 0.8,
                    model.maxPowerW());
            double used = a == Activity.IDLE
                    ? 4 + rng.uniform(0, 1)
                    : clamp(
                            model.memoryMiB() * job.memoryFraction * a.memoryShare + rng.noise(120),
                            0,
                            model.memoryMiB());
            double target = a.temperature + n.thermalBias[i];
            n.temperature[i] += (target - n.temperature[i]) * alpha + rng.noise(0.3);
            boolean onGpu = i < procs && a != Activity.IDLE;
            ctx.emit(
                    Emitter.DCGM,
                    EventType.GPU_SAMPLE,
                    n.name,
                    new GpuData.Sample(
                            n.uuids[i],
                            i,
                            model.name(),
                            round1(util),
                            round1(used),
                            round1(model.memoryMiB() - used),
                            round1(n.temperature[i]),
                            round1(power),
                            ZERO,
                            n.dbe[i] == 0 ? ZERO : Long.valueOf(n.dbe[i]),
                            ZERO,
                            ZERO,
                            n.lastXid[i],
                            onGpu ? pod : null,
                            onGpu ? namespace : null));
        }
    }

    private static Activity activity(SimJob job) {
        return switch (job.phase) {
            case RUNNING -> job.blocked ? Activity.SAVING : Activity.TRAINING;
            case RESTORING -> Activity.LOADING;
            case RESCALING, SUSPENDING -> job.blocked ? Activity.SAVING : Activity.HOLDING;
            default -> Activity.IDLE;
        };
    }

    private static double clamp(double v, double min, double max) {
        return Math.max(min, Math.min(max, v));
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
