package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How much the in-memory model holds at most ({@code lifeline.model.limits.*}); documented in docs/configuration.md,
 * with what the defaults rest on. A new job or node beyond a limit is not applied (reason {@code limit_reached},
 * counted in {@code lifeline_ingest_not_applied_events_total}); what the model holds goes on.
 */
@ConfigMapping(prefix = "lifeline.model.limits")
public interface ModelLimitsConfig {

    /** Jobs that have not ended, fleet-wide. Ended jobs are bounded on their own (the newest 5,000 are kept). */
    @WithDefault("10000")
    int maxJobs();

    /** Jobs that have not ended in one namespace, so that one team's token cannot take all the room. */
    @WithDefault("2000")
    int maxJobsPerNamespace();

    /** Nodes besides the terminated ones kept as history. */
    @WithDefault("50000")
    int maxNodes();

    /**
     * A submitted job that never ran (no rendezvous, no progress) and has not ended is forgotten once no event of it
     * came for this long (event time): a job submitted and then lost track of does not stay forever. Longer than a
     * job waits in a queue without any event.
     */
    @WithDefault("7d")
    Duration unstartedJobsForgetAfter();
}
