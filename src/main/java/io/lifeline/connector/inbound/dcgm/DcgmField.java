package io.lifeline.connector.inbound.dcgm;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The dcgm-exporter series the translator reads, under every name they have had: the {@code DCGM_FI_*} names
 * of dcgm-exporter 2.x+, the same names in lower case (as some older builds and relabelled setups write them,
 * see the issue #272 fixture), and the 1.x exporter names ({@code dcgm_gpu_temp}, ...).
 *
 * <p>{@link #device} tells whether a value describes the physical GPU (temperature, power, errors: it belongs
 * to the parent GPU even when a MIG instance reports it) or the GPU instance (utilisation and frame buffer).
 */
enum DcgmField {
    GPU_UTIL("DCGM_FI_DEV_GPU_UTIL", false, "dcgm_gpu_utilization"),
    GR_ENGINE_ACTIVE("DCGM_FI_PROF_GR_ENGINE_ACTIVE", false),
    FB_USED("DCGM_FI_DEV_FB_USED", false, "dcgm_fb_used"),
    FB_FREE("DCGM_FI_DEV_FB_FREE", false, "dcgm_fb_free"),
    GPU_TEMP("DCGM_FI_DEV_GPU_TEMP", true, "dcgm_gpu_temp"),
    POWER_USAGE("DCGM_FI_DEV_POWER_USAGE", true, "dcgm_power_usage"),
    ECC_SBE_VOLATILE("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", true, "dcgm_ecc_sbe_volatile_total"),
    ECC_DBE_VOLATILE("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", true, "dcgm_ecc_dbe_volatile_total"),
    ROW_REMAP_FAILURE("DCGM_FI_DEV_ROW_REMAP_FAILURE", true),
    NVLINK_CRC_FLIT_ERRORS(
            "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", true, "dcgm_nvlink_flit_crc_error_count_total"),
    NVLINK_CRC_DATA_ERRORS(
            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", true, "dcgm_nvlink_data_crc_error_count_total"),
    NVLINK_REPLAY_ERRORS("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", true, "dcgm_nvlink_replay_error_count_total"),
    NVLINK_RECOVERY_ERRORS(
            "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", true, "dcgm_nvlink_recovery_error_count_total"),
    XID_ERRORS("DCGM_FI_DEV_XID_ERRORS", true, "dcgm_xid_errors");

    private static final Map<String, DcgmField> BY_NAME = new HashMap<>();

    static {
        for (DcgmField f : values()) {
            BY_NAME.put(f.canonical, f);
            BY_NAME.put(f.canonical.toLowerCase(Locale.ROOT), f);
            for (String legacy : f.legacy) {
                BY_NAME.put(legacy, f);
            }
        }
    }

    final String canonical;
    final boolean device;

    @SuppressWarnings("ImmutableEnumChecker") // private, never written after construction
    private final String[] legacy;

    DcgmField(String canonical, boolean device, String... legacy) {
        this.canonical = canonical;
        this.device = device;
        this.legacy = legacy;
    }

    /** The field a series name stands for, {@code null} for series the translator does not read. */
    static DcgmField of(String seriesName) {
        return BY_NAME.get(seriesName);
    }

    /** Whether a series comes from dcgm-exporter at all ({@code DCGM_...} or {@code dcgm_...}). */
    static boolean isDcgmSeries(String seriesName) {
        return seriesName.regionMatches(true, 0, "dcgm_", 0, 5);
    }
}
