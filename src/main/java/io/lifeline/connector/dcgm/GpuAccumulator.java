package io.lifeline.connector.dcgm;

import io.lifeline.connector.exposition.Sample;

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
        return (uuid == otherUuid || uuid.equals(otherUuid))
                && (instanceId == null ? otherInstance == null : instanceId.equals(otherInstance));
    }

    void apply(DcgmField field, Sample s) {
        double v = s.value();
        if (Double.isNaN(v)) {
            return; // NaN is "no data" as much as a missing series
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

    /** Utilisation in percent: DCGM_FI_DEV_GPU_UTIL, else the graphics-engine-active ratio (MIG has only that). */
    double utilizationPercent() {
        return Double.isNaN(utilization) && !Double.isNaN(grEngineActive) ? grEngineActive * 100.0 : utilization;
    }
}
