package io.lifeline.domain.gpu;

import java.util.Locale;

/**
 * Turns a GPU's retained telemetry and XIDs into a verdict. Evaluation allocates nothing (it runs on every
 * sample); the human-readable reason is only built for views and signals.
 */
public final class GpuHealthRules {

    private final XidPolicy policy;
    private final GpuThresholds thresholds;

    public GpuHealthRules(XidPolicy policy, GpuThresholds thresholds) {
        this.policy = policy;
        this.thresholds = thresholds;
    }

    public XidPolicy policy() {
        return policy;
    }

    public GpuThresholds thresholds() {
        return thresholds;
    }

    /** The first rule that matches, worst verdicts first; {@link HealthReason#NONE} when nothing is wrong. */
    HealthReason evaluate(GpuState g) {
        if (g.xidHealth() == GpuHealth.FAILED) {
            return HealthReason.XID_FAILED;
        }
        if (g.eccDbe > 0) {
            return HealthReason.ECC_DBE;
        }
        if (g.rowRemapFailures > 0) {
            return HealthReason.ROW_REMAP_FAILURE;
        }
        // NaN (no data) compares false, so a missing temperature is never a finding.
        if (g.temperature >= thresholds.temperatureFailedCelsius()) {
            return HealthReason.TEMPERATURE_CRITICAL;
        }
        DeviceReports devices = g.devices();
        if (devices != null && devices.taintBlocks()) {
            return HealthReason.DEVICE_TAINTED;
        }
        if (devices != null && devices.kubeletUnhealthy()) {
            return HealthReason.DEVICE_UNHEALTHY;
        }
        if (g.xidHealth() == GpuHealth.DEGRADED) {
            return HealthReason.XID_DEGRADED;
        }
        if (g.temperature >= thresholds.temperatureDegradedCelsius()) {
            return HealthReason.TEMPERATURE_HIGH;
        }
        if (g.nvlinkPerMinute >= thresholds.nvlinkErrorsPerMinute()) {
            return HealthReason.NVLINK_ERRORS;
        }
        if (devices != null && devices.taintInforms()) {
            return HealthReason.DEVICE_TAINT_INFO;
        }
        return HealthReason.NONE;
    }

    /** A sentence for operators, for example {@code XID 79 (GPU has fallen off the bus): REBOOT}; null when healthy. */
    String describe(HealthReason reason, GpuState g) {
        return switch (reason) {
            case XID_FAILED, XID_DEGRADED -> {
                XidRule r = policy.rule(g.xidCause());
                yield r.label() + ": " + r.action();
            }
            case ECC_DBE -> g.eccDbe + " volatile double-bit ECC error(s)";
            case ROW_REMAP_FAILURE -> "row remapping failure (" + g.rowRemapFailures + ")";
            case TEMPERATURE_CRITICAL, TEMPERATURE_HIGH ->
                String.format(Locale.ROOT, "temperature %.0f °C", g.temperature);
            case NVLINK_ERRORS -> String.format(Locale.ROOT, "NVLink errors growing at %.1f/min", g.nvlinkPerMinute);
            case DEVICE_TAINTED, DEVICE_TAINT_INFO -> {
                DeviceReports d = g.devices();
                yield "DRA device taint " + d.taintDetail + " on " + d.taintDevice;
            }
            case DEVICE_UNHEALTHY -> {
                DeviceReports d = g.devices();
                yield "kubelet reports device " + d.kubeletDevice + " Unhealthy"
                        + (d.kubeletDetail == null ? "" : " (" + d.kubeletDetail + ")");
            }
            case NONE -> null;
        };
    }
}
