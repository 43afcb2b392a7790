package io.lifeline.domain.job.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.WorkerFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The workload-error rule judges "the same step" by the step the failed ranks reported, not by the job's last
 * progress when the failure arrived: progress is sampled (every few seconds by default), so three attempts that fail at
 * the same step stop at different sampled steps.
 */
class WorkloadErrorStepTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final String ERROR = "RuntimeError: loss is NaN at step 30";

    @Test
    void theSameErrorAtTheSameReportedStepIsAWorkloadErrorWhateverTheSampledStopStep() {
        List<Attempt> chain = List.of(
                attempt(1, 27L, failure(0, 29L), failure(1, 29L)),
                attempt(2, 25L, failure(0, 29L), failure(1, 29L)),
                attempt(3, 29L, failure(0, 29L), failure(1, 29L)));
        List<String> evidence = new ArrayList<>();

        assertThat(RecoveryDecider.workloadError(chain, 3, evidence)).isTrue();
        assertThat(evidence).hasSize(3).allMatch(e -> e.contains("at step 29 with " + ERROR + " on ranks [0, 1]"));
    }

    @Test
    void failuresAtDifferentReportedStepsAreNot() {
        List<Attempt> chain = List.of(
                attempt(1, 29L, failure(0, 29L)), attempt(2, 29L, failure(0, 29L)), attempt(3, 29L, failure(0, 31L)));

        assertThat(RecoveryDecider.workloadError(chain, 3, new ArrayList<>())).isFalse();
    }

    @Test
    void withoutAReportedStepTheStopStepDecidesAsBefore() {
        List<Attempt> same = List.of(
                attempt(1, 29L, failure(0, null)),
                attempt(2, 29L, failure(0, null)),
                attempt(3, 29L, failure(0, null)));
        List<Attempt> apart = List.of(
                attempt(1, 29L, failure(0, null)),
                attempt(2, 25L, failure(0, null)),
                attempt(3, 29L, failure(0, null)));

        assertThat(RecoveryDecider.workloadError(same, 3, new ArrayList<>())).isTrue();
        assertThat(RecoveryDecider.workloadError(apart, 3, new ArrayList<>())).isFalse();
        assertThat(RecoveryDecider.failedAt(List.of(), 12L)).isEqualTo(12L);
    }

    private static WorkerFailure failure(int rank, Long step) {
        return WorkerFailure.of(T0, rank, "node-" + rank, 1, ERROR, step);
    }

    private static Attempt attempt(int n, Long stopStep, WorkerFailure... failures) {
        return new Attempt(
                n,
                T0.plusSeconds(60L * n),
                T0.plusSeconds(60L * n + 30),
                n == 1 ? null : "inc-" + (n - 1),
                n == 1 ? null : IncidentCause.SOFTWARE_ERROR,
                "inc-" + n,
                IncidentCause.SOFTWARE_ERROR,
                "rank 0 exit code 1",
                List.of("node-0", "node-1"),
                List.of(failures),
                n == 1 ? 0L : 20L,
                stopStep,
                null,
                n == 1 ? null : 20L,
                20L,
                n == 1,
                null);
    }
}
