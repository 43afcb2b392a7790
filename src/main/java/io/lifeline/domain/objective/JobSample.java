package io.lifeline.domain.objective;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import java.util.Map;

/**
 * One job as the objectives sample it: its groups and its cumulative GPU time, from submission up to the sample.
 *
 * @param job              {@code namespace/name}
 * @param namespace        its namespace
 * @param owner            its owner label, or null
 * @param pool             the pool most of its nodes are in, or null
 * @param gpuMillis        GPU-milliseconds per goodput bucket since submission
 * @param lostGpuHours     GPU-hours lost per incident cause since submission (of the incidents the job keeps)
 * @param pricePerGpuHour  what a GPU-hour of it costs now (its pool and capacity type), or null when unpriced
 */
public record JobSample(
        String job,
        String namespace,
        String owner,
        String pool,
        Map<Bucket, Long> gpuMillis,
        Map<IncidentCause, Double> lostGpuHours,
        Double pricePerGpuHour) {

    public JobSample {
        gpuMillis = Map.copyOf(gpuMillis);
        lostGpuHours = Map.copyOf(lostGpuHours);
    }
}
