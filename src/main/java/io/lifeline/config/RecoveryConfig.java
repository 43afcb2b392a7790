package io.lifeline.config;

import io.lifeline.domain.job.recovery.RecoveryRules;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The recovery ladder's rules and budgets ({@code lifeline.recovery.*}); see docs/recovery.md. Whether the ladder acts
 * is the {@code recovery-ladder} policy's mode, like every policy's.
 */
@ConfigMapping(prefix = "lifeline.recovery")
public interface RecoveryConfig {

    /** Attempts in a row ended by the same error at the same step that make a workload error (stop and page). */
    @WithDefault("3")
    int workloadErrorAttempts();

    /** Attempts in a row ended by failures without checkpoint progress that stop the job. */
    @WithDefault("3")
    int noProgressAttempts();

    /** Attempts in a row that failed only on one node before that node is taken out. */
    @WithDefault("2")
    int nodeAttempts();

    /** Time for training to resume after a restart in place. */
    @WithDefault("10m")
    Duration inPlaceDeadline();

    /** Time to go on without an excluded node. */
    @WithDefault("15m")
    Duration excludeDeadline();

    /** Time for a job to stop. */
    @WithDefault("10m")
    Duration stopDeadline();

    /** How long a reached state must have lasted to be verified. */
    @WithDefault("30s")
    Duration hold();

    /** Failures allowed for a job that declares no {@code maxRestarts}; unset: no limit. */
    Optional<Integer> failureBudget();

    /** Interruptions with notice or by plan allowed per job; unset: no limit. */
    Optional<Integer> plannedBudget();

    /** The rules these settings make. */
    static RecoveryRules rules(RecoveryConfig c) {
        return new RecoveryRules(
                RecoveryRules.VERSION,
                c.workloadErrorAttempts(),
                c.noProgressAttempts(),
                c.nodeAttempts(),
                c.inPlaceDeadline(),
                c.excludeDeadline(),
                c.stopDeadline(),
                c.hold(),
                c.failureBudget().orElse(null),
                c.plannedBudget().orElse(null));
    }
}
