package io.lifeline.domain.gpu;

/**
 * Limits that turn GPU telemetry into a verdict.
 *
 * @param temperatureDegradedCelsius  at or above: DEGRADED (default 85 °C, just under the maximum operating
 *                                    temperature of data-centre GPUs such as the A100's 87 °C)
 * @param temperatureFailedCelsius    at or above: FAILED (default 92 °C, where such GPUs shut down)
 * @param nvlinkErrorsPerMinute       NVLink error growth at or above this rate between two samples: DEGRADED
 *                                    (default 10 per minute; a few replays are normal, a steady stream is not)
 */
public record GpuThresholds(
        double temperatureDegradedCelsius, double temperatureFailedCelsius, double nvlinkErrorsPerMinute) {

    public GpuThresholds {
        if (temperatureFailedCelsius < temperatureDegradedCelsius) {
            throw new IllegalArgumentException("failed temperature must be >= degraded temperature");
        }
        if (nvlinkErrorsPerMinute <= 0) {
            throw new IllegalArgumentException("nvlinkErrorsPerMinute must be > 0");
        }
    }

    /** The documented defaults. */
    public static GpuThresholds defaults() {
        return new GpuThresholds(85, 92, 10);
    }
}
