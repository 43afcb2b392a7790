package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.PhaseSplit;
import io.lifeline.domain.job.incident.RecoveryPhase;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseCalculator;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseRow;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The Reliability page's recovery-phase cells, summary and chart from a report as the core makes it. */
class RecoveryPhasesPresenterTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    /** Detection and restore seconds, 8 GPUs held throughout. */
    private static PhaseSplit split(long detection, long restore) {
        long[] ms = new long[RecoveryPhase.values().length];
        ms[RecoveryPhase.DETECTION.ordinal()] = detection * 1000;
        ms[RecoveryPhase.RESTORE.ordinal()] = restore * 1000;
        long[] gms = new long[ms.length];
        for (int i = 0; i < ms.length; i++) {
            gms[i] = ms[i] * 8;
        }
        return PhaseSplit.of(ms, gms);
    }

    private static RecoveryPhaseReport report(PhaseGroupBy by) {
        RecoveryPhaseCalculator c = new RecoveryPhaseCalculator(NOW, 7, by);
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", NOW.minusSeconds(3600), split(30, 600));
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", NOW.minusSeconds(7200), split(90, 300));
        c.add(IncidentCause.GPU_FAULT, "od-b", NOW.minusSeconds(7200), split(45, 1800));
        return c.report();
    }

    @Test
    void cellsHoldTheMedianAndThe90thPercentile() {
        RecoveryPhaseReport r = report(PhaseGroupBy.CAUSE);
        RecoveryPhaseRow spot = r.rows().get(0);
        assertThat(RecoveryPhasesPresenter.group(spot)).isEqualTo("spot reclaim");
        // 30 and 90 s: the median is the first, the 90th percentile the second.
        assertThat(RecoveryPhasesPresenter.cell(spot, RecoveryPhase.DETECTION)).isEqualTo("30 s / 1 min 30 s");
        assertThat(RecoveryPhasesPresenter.cell(spot, RecoveryPhase.RESTORE)).isEqualTo("5 min / 10 min");
        assertThat(RecoveryPhasesPresenter.cell(spot, RecoveryPhase.DECISION)).isEqualTo("0 s / 0 s");
        // (120 + 900) s × 8 GPUs = 8,160 GPU-s = 2.27 GPU-hours.
        assertThat(RecoveryPhasesPresenter.gpuHours(spot)).isEqualTo("2.3 GPU-h");
        assertThat(RecoveryPhasesPresenter.rows(r))
                .extracting(RecoveryPhasesPresenter::group)
                .containsExactly("All", "spot reclaim", "gpu fault");
        assertThat(RecoveryPhasesPresenter.phase(RecoveryPhase.LOST_REWORK)).isEqualTo("Lost rework");
        assertThat(RecoveryPhasesPresenter.group(
                        report(PhaseGroupBy.CAUSE_POOL).rows().get(0)))
                .isEqualTo("spot reclaim · spot-a");
        assertThat(RecoveryPhasesPresenter.group(
                        report(PhaseGroupBy.POOL).rows().get(0)))
                .isEqualTo("spot-a");
    }

    @Test
    void theSummaryNamesThePhaseThatHeldTheMostGpuHours() {
        // Restore: (600 + 300 + 1800) s × 8 = 6 GPU-hours of 6.37 in all.
        assertThat(RecoveryPhasesPresenter.summary(report(PhaseGroupBy.CAUSE), ZoneOffset.UTC))
                .isEqualTo("3 interruptions closed since 2026-11-30 12:00:00 · 6.4 GPU-h · most in restore (6.0 GPU-h)"
                        + " · nearest-rank percentiles");
    }

    @Test
    void theChartStacksTheMediansOfEachPhasePerRow() {
        RecoveryPhaseReport r = report(PhaseGroupBy.CAUSE);
        String option = RecoveryPhasesPresenter.chart(r);
        assertThat(option)
                .contains(
                        "\"stack\":\"median\"",
                        "\"name\":\"Detection\"",
                        "\"name\":\"Lost rework\"",
                        "\"All (3)\"",
                        "\"spot reclaim (2)\"",
                        // Detection medians: all 30, 45, 90 → 45; spot reclaim 30; gpu fault 45.
                        "\"data\":[45.0,30.0,45.0]");
        assertThat(RecoveryPhasesPresenter.describe(r))
                .startsWith("Median seconds by recovery phase per cause, 7 days: All (3): detection 45 s,")
                .contains("gpu fault (1): detection 45 s, decision 0 s, rescheduling 0 s, rendezvous 0 s,"
                        + " restore 30 min, lost rework 0 s");
    }
}
