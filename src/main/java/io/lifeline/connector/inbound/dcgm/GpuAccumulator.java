package io.lifeline.connector.inbound.dcgm;

import io.lifeline.connector.inbound.exposition.Sample;

/**
 * The values one scrape reports for one GPU key: a whole GPU ({@code uuid}) or one MIG instance of it
 * ({@code uuid/GPU_I_ID}). Missing values stay NaN ("no data"), never zero. Scratch state of a single
 * translation, not shared.
 */
final class GpuAccumulator {

    final String uuid;
    final String instanceId;
    final String key;
    final int index;
    final String model;
    String pod;
    String namespace;
    String pciBusId;

    /** Whether the scrape had series for exactly this key (false for a parent implied by its MIG instances). */
    boolean direct;
    /** Whether any device-level value (temperature, power, errors, XID) arrived for this key. */
    boolean deviceData;

    double utilization = Double.NaN;
    double grEngineActive = Double.NaN;
    double fbUsed = Double.NaN;
    double fbFree = Double.NaN;
    double temperature = Double.NaN;
    double power = Double.NaN;
    double eccSbe = Double.NaN;
    double eccDbe = Double.NaN;
    double rowRemapFailure = Double.NaN;
    double nvlinkErrors = Double.NaN;
    double xid = Double.NaN;
    String xidMessage;

    GpuAccumulator(String uuid, String instanceId, int index, String model) {
        this.uuid = uuid;
        this.instanceId = instanceId;
        this.key = instanceId == null ? uuid : uuid + "/" + instanceId;
        this.index = index;
        this.model = model;
    }

    boolean is(String otherUuid, String otherInstance) {
        return uuid.equals(otherUuid)
                && (instanceId == null ? otherInstance == null : instanceId.equals(otherInstance));
    }

    void apply(DcgmField field, Sample s) {
        double v = s.value();
        if (Double.isNaN(v) || isBlank(v)) {
            return; // NaN and DCGM's blank markers are "no data" as much as a missing series
        }
        deviceData |= field.device;
        switch (field) {
            case GPU_UTIL -> utilization = v;
            case GR_ENGINE_ACTIVE -> grEngineActive = v;
            case FB_USED -> fbUsed = v;
            case FB_FREE -> fbFree = v;
            case GPU_TEMP -> temperature = v;
            case POWER_USAGE -> power = v;
            case ECC_SBE_VOLATILE -> eccSbe = v;
            case ECC_DBE_VOLATILE -> eccDbe = v;
            case ROW_REMAP_FAILURE -> rowRemapFailure = v;
            case NVLINK_CRC_FLIT_ERRORS, NVLINK_CRC_DATA_ERRORS, NVLINK_REPLAY_ERRORS, NVLINK_RECOVERY_ERRORS ->
                nvlinkErrors = Double.isNaN(nvlinkErrors) ? v : nvlinkErrors + v;
            case XID_ERRORS -> {
                xid = v;
                String msg = s.label("err_msg");
                xidMessage = msg == null || msg.isEmpty() || "No Error".equals(msg) ? null : msg;
            }
            default -> throw new IllegalStateException(field.name());
        }
    }

    /**
     * DCGM's markers for a value it does not have (blank, not found, not supported, no permission), which exporters
     * before 2.1 (July 2020) printed as values: the 64-bit integer markers from {@code 0x7ffffffffffffff0}
     * ({@code 9223372036854775792}, ...), the 32-bit ones from {@code 0x7ffffff0}, and the floating-point ones from
     * 2<sup>47</sup> ({@code 140737488355328.0}, ...).
     */
    static boolean isBlank(double v) {
        return v >= 9.223372036854775E18
                || v >= INT32_BLANK && v < INT32_BLANK + 4
                || v >= FP64_BLANK && v < FP64_BLANK + 4;
    }

    private static final double INT32_BLANK = 0x7ffffff0;
    private static final double FP64_BLANK = 140737488355328.0;

    /** Utilisation in percent: DCGM_FI_DEV_GPU_UTIL, else the graphics-engine-active ratio (MIG has only that). */
    double utilizationPercent() {
        return Double.isNaN(utilization) && !Double.isNaN(grEngineActive) ? grEngineActive * 100.0 : utilization;
    }
}
