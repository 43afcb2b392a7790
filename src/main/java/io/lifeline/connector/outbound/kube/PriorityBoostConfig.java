package io.lifeline.connector.outbound.kube;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The checkpoint-aware priority boost on Kueue Workloads ({@code lifeline.priority-boost.*}), written while the
 * Kubernetes connector is on, and the same decision on KAI Scheduler and Volcano PodGroups ({@code .kai.*},
 * {@code .volcano.*}). Documented in docs/connectors.md, "Kueue priority boost", "KAI Scheduler" and "Volcano".
 */
@ConfigMapping(prefix = "lifeline.priority-boost")
public interface PriorityBoostConfig {

    /** Whether Kueue Workloads get {@code kueue.x-k8s.io/priority-boost} while their job's work at risk is high. */
    @WithDefault("false")
    boolean enabled();

    /** The boost written (Kueue adds it to the Workload's priority), at least 1. */
    @WithDefault("1000")
    int value();

    /** GPU-hours at risk since the newest counted checkpoint at or above which a job is boosted (0: not used). */
    @WithDefault("4")
    double gpuHoursThreshold();

    /** Checkpoint age at or above which a job is boosted (0s: not used). */
    @WithDefault("0s")
    Duration ageThreshold();

    /** How often the Workloads are looked at (only changed boosts are written; a checkpoint of a boosted job also
     *  starts a look at once). */
    @WithDefault("30s")
    Duration interval();

    /** KAI Scheduler PodGroups. */
    PodGroups kai();

    /** Volcano PodGroups. */
    VolcanoPodGroups volcano();

    /** A scheduler's PodGroups. */
    interface PodGroups {

        /** Whether its PodGroups get {@code lifeline.io/preemption-cost} while their job's work at risk is high. */
        @WithDefault("false")
        boolean enabled();
    }

    /** Volcano's PodGroups, where {@code volcano.sh/preemptable} can also protect a job for a while. */
    interface VolcanoPodGroups {

        /** Whether its PodGroups get {@code lifeline.io/preemption-cost} while their job's work at risk is high. */
        @WithDefault("false")
        boolean enabled();

        /**
         * How long a high preemption cost sets {@code volcano.sh/preemptable: "false"} on the PodGroup, from the start
         * of the high cost until the job checkpoints or this passes (0s: never).
         */
        @WithDefault("0s")
        Duration protectFor();
    }
}
