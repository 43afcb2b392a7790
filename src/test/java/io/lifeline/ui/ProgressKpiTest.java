package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.ProgressView;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job page's progress figure names the source Lifeline trusts and what a TrainJob's status adds. */
class ProgressKpiTest {

    private static final Instant NOW = Instant.parse("2025-01-23T10:35:45Z");

    private static JobSummary summary(Long lastStep) {
        return new JobSummary(
                "default/multi-node-example",
                "default",
                JobState.RUNNING,
                NOW,
                0,
                0,
                0,
                0,
                null,
                false,
                lastStep,
                null,
                null,
                false,
                null,
                null,
                null,
                0,
                null,
                null,
                NOW,
                null,
                false);
    }

    @Test
    void aJobWithoutTheAgentShowsItsTrainJobPercentageAndSource() {
        ProgressView p = new ProgressView(
                ProgressView.TRAINJOB_STATUS,
                "why",
                Instant.parse("2025-01-23T10:30:45Z"),
                45,
                3600L,
                null,
                null,
                List.of(new TrainerData.Metric("loss", "0.2347")),
                null);
        assertThat(ProgressKpi.value(summary(null), p)).isEqualTo("45 %");
        assertThat(ProgressKpi.hint(p, NOW))
                .isEqualTo("source: trainjob status · trainerStatus 45 %, ETA 1 h, reported 5 min ago");
    }

    @Test
    void aJobWithTheAgentShowsItsStepAndNamesTheAgent() {
        ProgressView p = new ProgressView(ProgressView.AGENT, "why", null, null, null, null, null, List.of(), null);
        assertThat(ProgressKpi.value(summary(48_300L), p)).isEqualTo("step 48300");
        assertThat(ProgressKpi.hint(p, NOW)).isEqualTo("source: agent");
    }
}
