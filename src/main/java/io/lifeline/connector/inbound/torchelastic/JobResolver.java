package io.lifeline.connector.inbound.torchelastic;

import java.util.Map;

/**
 * Finds the job a torchelastic event belongs to. torchelastic names a run only by its rendezvous id
 * ({@code run_id}, torchrun's {@code --rdzv-id}); nothing in its events names the Kubernetes job, so the caller
 * supplies the mapping: a table filled from the job objects (see {@link #of}), or the convention that the run id
 * is the job name (see {@link #runIdInNamespace}), which holds when the launcher passes
 * {@code --rdzv-id=$(JOB_NAME)}.
 */
@FunctionalInterface
public interface JobResolver {

    /** The binding for a run seen on {@code hostname}, or {@code null} when the run is not a known job. */
    JobBinding resolve(String runId, String hostname);

    /** A fixed table from run id to binding. */
    static JobResolver of(Map<String, JobBinding> byRunId) {
        Map<String, JobBinding> copy = Map.copyOf(byRunId);
        return (runId, hostname) -> runId == null ? null : copy.get(runId);
    }

    /**
     * The run id is the job's name in {@code namespace}; {@code procsPerNode} may be null. A run id that cannot
     * be a job name resolves to null.
     */
    static JobResolver runIdInNamespace(String namespace, Integer procsPerNode) {
        return (runId, hostname) -> {
            String job = namespace + "/" + runId;
            return runId != null && JobBinding.isValidJob(job) ? new JobBinding(job, procsPerNode) : null;
        };
    }
}
