package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;
import java.util.Optional;

/** torchelastic event endpoint ({@code lifeline.connectors.torchelastic.*}); documented in docs/connectors.md. */
@ConfigMapping(prefix = "lifeline.connectors.torchelastic")
public interface TorchelasticConnectorConfig {

    /** Whether {@code POST /api/v1/connectors/torchelastic} and torchelastic records on Kafka are taken. */
    @WithDefault("true")
    boolean enabled();

    /**
     * When set, a run id that no other mapping knows is taken as the name of a job in this namespace (the
     * launcher passes {@code --rdzv-id=$(JOB_NAME)}).
     */
    Optional<String> defaultNamespace();

    /** Fixed mappings from run id ({@code --rdzv-id}) to job. */
    Map<String, Job> jobs();

    /** Rendezvous rounds that may wait for their last node at a time. */
    @WithDefault("1024")
    int maxPendingRounds();

    /** Most lines in one request. */
    @WithDefault("10000")
    int maxLines();

    /** {@code lifeline.connectors.torchelastic.jobs."<run id>".*}. */
    interface Job {
        /** The job, {@code namespace/name}. */
        String job();

        /** Worker processes per node ({@code --nproc-per-node}). */
        Optional<Integer> procsPerNode();
    }
}
