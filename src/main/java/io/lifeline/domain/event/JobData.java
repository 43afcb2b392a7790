package io.lifeline.domain.event;

import java.util.Locale;

/** Payloads of {@code job.*} events; the subject is the job ({@code namespace/name}). */
public sealed interface JobData extends EventData {

    /**
     * A training job was submitted.
     *
     * @param namespace                  Kubernetes namespace (or team)
     * @param owner                      who owns it, may be null
     * @param priorityClass              priority class, may be null
     * @param elastic                    elastic policy
     * @param gpusPerNode                GPUs the job uses on each node
     * @param checkpointIntervalSeconds  configured checkpoint interval, may be null
     */
    record Submitted(
            String namespace,
            String owner,
            String priorityClass,
            ElasticPolicy elastic,
            int gpusPerNode,
            Long checkpointIntervalSeconds)
            implements JobData {}

    /** Some settings of the job changed; null fields are unchanged. */
    record Updated(String priorityClass, ElasticPolicy elastic, Integer gpusPerNode, Long checkpointIntervalSeconds)
            implements JobData {}

    /** The job ended. */
    record Finished(Outcome outcome, String reason) implements JobData {}

    /** How a job ended. */
    enum Outcome {
        SUCCEEDED,
        FAILED,
        CANCELLED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
