package io.lifeline.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a GPU model that plausible telemetry needs: frame buffer size, board power limit and
 * idle draw. Names are what {@code nvidia-smi} and dcgm-exporter report as {@code modelName}.
 *
 * @param name         model name as reported by the driver
 * @param memoryMiB    frame buffer size
 * @param maxPowerW    board power limit
 * @param idlePowerW   typical draw when idle
 */
public record GpuModel(String name, double memoryMiB, double maxPowerW, double idlePowerW) {

    public static final GpuModel A100_40GB = new GpuModel("NVIDIA A100-SXM4-40GB", 40960, 400, 55);
    public static final GpuModel A100_80GB = new GpuModel("NVIDIA A100-SXM4-80GB", 81920, 400, 60);
    public static final GpuModel H100_80GB = new GpuModel("NVIDIA H100 80GB HBM3", 81559, 700, 70);
    public static final GpuModel H200 = new GpuModel("NVIDIA H200", 143771, 700, 75);
    public static final GpuModel A10G = new GpuModel("NVIDIA A10G", 23028, 300, 25);
    public static final GpuModel L4 = new GpuModel("NVIDIA L4", 23034, 72, 16);

    private static final List<GpuModel> MODELS = List.of(A100_40GB, A100_80GB, H100_80GB, H200, A10G, L4);
    private static final Map<String, GpuModel> BY_INSTANCE_TYPE = new LinkedHashMap<>();

    static {
        BY_INSTANCE_TYPE.put("p4d.24xlarge", A100_40GB);
        BY_INSTANCE_TYPE.put("p4de.24xlarge", A100_80GB);
        BY_INSTANCE_TYPE.put("p5.48xlarge", H100_80GB);
        BY_INSTANCE_TYPE.put("p5e.48xlarge", H200);
        BY_INSTANCE_TYPE.put("p5en.48xlarge", H200);
        BY_INSTANCE_TYPE.put("g5.48xlarge", A10G);
        BY_INSTANCE_TYPE.put("g6.48xlarge", L4);
        BY_INSTANCE_TYPE.put("a2-highgpu-8g", A100_40GB);
        BY_INSTANCE_TYPE.put("a2-ultragpu-8g", A100_80GB);
        BY_INSTANCE_TYPE.put("a3-highgpu-8g", H100_80GB);
        BY_INSTANCE_TYPE.put("a3-megagpu-8g", H100_80GB);
        BY_INSTANCE_TYPE.put("a3-ultragpu-8g", H200);
        BY_INSTANCE_TYPE.put("g2-standard-96", L4);
        BY_INSTANCE_TYPE.put("Standard_ND96asr_v4", A100_40GB);
        BY_INSTANCE_TYPE.put("Standard_ND96amsr_A100_v4", A100_80GB);
        BY_INSTANCE_TYPE.put("Standard_ND96isr_H100_v5", H100_80GB);
        BY_INSTANCE_TYPE.put("Standard_ND96isr_H200_v5", H200);
    }

    /** The model of the GPUs of a known instance type, or null. */
    public static GpuModel forInstanceType(String instanceType) {
        return instanceType == null ? null : BY_INSTANCE_TYPE.get(instanceType);
    }

    /** A model by its name (case-insensitive), or null. */
    public static GpuModel byName(String name) {
        for (GpuModel m : MODELS) {
            if (m.name.equalsIgnoreCase(name)) {
                return m;
            }
        }
        return null;
    }

    static String knownNames() {
        StringBuilder b = new StringBuilder();
        for (GpuModel m : MODELS) {
            b.append(b.length() == 0 ? "" : ", ").append(m.name);
        }
        return b.toString();
    }

    static String knownInstanceTypes() {
        return String.join(", ", BY_INSTANCE_TYPE.keySet());
    }
}
