package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.job.recovery.RecoveryRules;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job-recovery-stopped rule: the page that goes with the ladder's stop, resolved when the job trains again. */
class JobRecoveryStoppedRuleTest {

    private static final Instant T0 = Instant.parse("2026-12-07T12:00:00Z");

    private static final Advice STOP = new Advice(
            "ml/llm",
            "ml/llm#3",
            1,
            Remedy.STOP_AND_PAGE,
            null,
            RecoveryRules.WORKLOAD_ERROR,
            RecoveryRules.VERSION,
            List.of(
                    "attempt 1 ended at step 120 with RuntimeError: loss is nan on ranks [0, 1]",
                    "attempt 2 ended at step 120 with RuntimeError: loss is nan on ranks [0, 1]",
                    "attempt 3 ended at step 120 with RuntimeError: loss is nan on ranks [0, 1]"),
            "the job stopped",
            T0,
            T0.plus(Duration.ofMinutes(10)),
            "on",
            Verdict.VERIFIED,
            "the job stopped (suspended)",
            T0);

    private static AlertSnapshot snapshot(Advice stop) {
        JobFacts j =
                new JobFacts("ml/llm", "ml", false, 0L, 3_600_000L, List.of(), false, null, false, null, null, stop);
        return new AlertSnapshot(List.of(j), List.of(), List.of(), List.of(), List.of(), null);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void aJobTheLadderStoppedPagesWithTheEvidenceAndResolvesWhenItTrainsAgain() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(null), 0).changes()).isEmpty();
        assertThat(at(e, snapshot(STOP), 1).changes()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
            assertThat(c.alert().labels())
                    .containsEntry("alertname", "JobRecoveryStopped")
                    .containsEntry("severity", "critical")
                    .containsEntry("job", "ml/llm")
                    .containsEntry("incident", "ml/llm#3");
            assertThat(c.alert().annotations().get("summary"))
                    .isEqualTo("ml/llm was stopped by recovery (workload-error)");
            assertThat(c.alert().annotations().get("description"))
                    .contains("ml/llm#3/1", "loss is nan", "lifelinectl attempts ml/llm");
        });
        assertThat(at(e, snapshot(null), 2).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void aNamespaceCanSwitchItOffAndItIsNamedJobRecoveryStopped() {
        AlertRules rules = AlertRules.defaults()
                .withNamespace("ml", AlertRule.JOB_RECOVERY_STOPPED, RuleSettings.Override.disable());
        assertThat(at(new AlertEngine(rules, 100, 10), snapshot(STOP), 0).changes())
                .isEmpty();
        assertThat(AlertRule.parse("JobRecoveryStopped")).isEqualTo(AlertRule.JOB_RECOVERY_STOPPED);
    }
}
