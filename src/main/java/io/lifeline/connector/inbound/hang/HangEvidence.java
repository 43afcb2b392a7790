package io.lifeline.connector.inbound.hang;

import io.lifeline.domain.event.JobData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.hang.HangVerdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * GPU telemetry that corroborates a hang, where the fleet has it: the utilisation and power of the GPUs of the
 * suspects' nodes (or of the job's nodes). Shown as evidence, never required: a job without dcgm is judged the same.
 */
final class HangEvidence {

    static final int MAX_LINES = 8;

    private HangEvidence() {}

    static List<String> gpus(Fleet fleet, HangVerdict v, List<String> jobNodes) {
        Set<String> nodes = new LinkedHashSet<>();
        for (JobData.HangSuspect s : v.suspects()) {
            if (s.node() != null) {
                nodes.add(s.node());
            }
        }
        if (nodes.isEmpty()) {
            nodes.addAll(jobNodes);
        }
        List<String> out = new ArrayList<>();
        for (String n : nodes) {
            List<GpuView> gpus = fleet.node(n).map(d -> d.gpus()).orElse(List.of());
            for (GpuView g : gpus) {
                if (out.size() >= MAX_LINES) {
                    return out;
                }
                if (g.utilizationPercent() == null && g.powerWatts() == null) {
                    continue;
                }
                out.add(String.format(
                        Locale.ROOT,
                        "GPU %d of %s: utilisation %s, power %s%s",
                        g.index(),
                        n,
                        g.utilizationPercent() == null ? "?" : Math.round(g.utilizationPercent()) + " %",
                        g.powerWatts() == null ? "?" : Math.round(g.powerWatts()) + " W",
                        g.sampledAt() == null ? "" : " (sampled " + g.sampledAt() + ")"));
            }
        }
        return out;
    }
}
