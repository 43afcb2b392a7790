package io.lifeline.domain.fleet;

import io.lifeline.domain.gpu.GpuThresholds;
import io.lifeline.domain.gpu.XidPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How the fleet model judges nodes and GPUs.
 *
 * @param clock                 "now" for reads (lemon window); events carry their own time
 * @param xidPolicy             XID table
 * @param gpuThresholds         telemetry limits
 * @param lemonWindow           sliding window of the lemon score (default 7 days)
 * @param lemonCapacity         interruptions remembered per node (default 64)
 * @param terminatedNodesKept   terminated nodes kept listed as history before the oldest are forgotten (default 10,000)
 * @param strayNodesForgetAfter a node that never registered (known only from GPU or late events, for example one
 *                              sent after it was forgotten) is forgotten once no event of it came for this long, in
 *                              event time (default 24 h)
 */
public record FleetSettings(
        Clock clock,
        XidPolicy xidPolicy,
        GpuThresholds gpuThresholds,
        Duration lemonWindow,
        int lemonCapacity,
        int terminatedNodesKept,
        Duration strayNodesForgetAfter) {

    public FleetSettings {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(xidPolicy, "xidPolicy");
        Objects.requireNonNull(gpuThresholds, "gpuThresholds");
        if (lemonWindow == null || lemonWindow.isNegative() || lemonWindow.isZero()) {
            throw new IllegalArgumentException("lemonWindow must be positive");
        }
        if (lemonCapacity < 1 || terminatedNodesKept < 0) {
            throw new IllegalArgumentException("lemonCapacity must be >= 1 and terminatedNodesKept >= 0");
        }
        if (strayNodesForgetAfter == null || strayNodesForgetAfter.isNegative() || strayNodesForgetAfter.isZero()) {
            throw new IllegalArgumentException("strayNodesForgetAfter must be positive");
        }
    }

    /** Settings with the default {@code strayNodesForgetAfter}. */
    public FleetSettings(
            Clock clock,
            XidPolicy xidPolicy,
            GpuThresholds gpuThresholds,
            Duration lemonWindow,
            int lemonCapacity,
            int terminatedNodesKept) {
        this(clock, xidPolicy, gpuThresholds, lemonWindow, lemonCapacity, terminatedNodesKept, DEFAULT_STRAY_FORGET);
    }

    private static final Duration DEFAULT_STRAY_FORGET = Duration.ofHours(24);

    /** The documented defaults with the shipped XID policy. */
    public static FleetSettings defaults(Clock clock) {
        return new FleetSettings(
                clock, XidPolicy.loadDefault(), GpuThresholds.defaults(), Duration.ofDays(7), 64, 10_000);
    }

    /** The same settings with another lemon window. */
    public FleetSettings withLemonWindow(Duration window) {
        return new FleetSettings(
                clock, xidPolicy, gpuThresholds, window, lemonCapacity, terminatedNodesKept, strayNodesForgetAfter);
    }

    /** The same settings with another {@code strayNodesForgetAfter}. */
    public FleetSettings withStrayNodesForgetAfter(Duration after) {
        return new FleetSettings(
                clock, xidPolicy, gpuThresholds, lemonWindow, lemonCapacity, terminatedNodesKept, after);
    }
}
