package io.lifeline.domain.job.recoverytime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.PhaseSplit;
import io.lifeline.domain.job.incident.RecoveryPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A week of interruptions whose phase times are chosen by hand, and their distributions counted by hand in the
 * comments (nearest rank: the q-th of n sorted values is the one at rank ⌈q·n⌉).
 *
 * <pre>
 *        cause          pool      detection  restore  lost   GPUs  stopped
 *   A    spot-reclaim   spot-a      10 s     100 s    300 s   8    1 day ago
 *   B    spot-reclaim   spot-a      40 s     120 s      0 s   8    2 days ago
 *   C    spot-reclaim   spot-a      20 s      80 s    600 s   8    3 days ago
 *   D    spot-reclaim   (none)      50 s      90 s     60 s   8    4 days ago
 *   E    spot-reclaim   spot-a      30 s     110 s    120 s   8    5 days ago
 *   F    gpu-fault      od-b       100 s     200 s    900 s  16    6 days ago
 *   G    gpu-fault      spot-a      60 s     150 s     30 s  16    6 days ago
 *   H    spot-reclaim   spot-a    1000 s      10 s     10 s   8    8 days ago (only in 30 days)
 * </pre>
 */
class RecoveryPhaseCalculatorTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    private static PhaseSplit split(long detection, long restore, long lost, int gpus) {
        long[] ms = new long[RecoveryPhase.values().length];
        ms[RecoveryPhase.DETECTION.ordinal()] = detection * 1000;
        ms[RecoveryPhase.RESTORE.ordinal()] = restore * 1000;
        ms[RecoveryPhase.LOST_REWORK.ordinal()] = lost * 1000;
        long[] gms = new long[ms.length];
        for (int i = 0; i < ms.length; i++) {
            gms[i] = ms[i] * gpus;
        }
        return PhaseSplit.of(ms, gms);
    }

    private static Instant daysAgo(int d) {
        return NOW.minus(Duration.ofDays(d));
    }

    private static RecoveryPhaseReport report(int days, PhaseGroupBy by) {
        RecoveryPhaseCalculator c = new RecoveryPhaseCalculator(NOW, days, by);
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", daysAgo(1), split(10, 100, 300, 8));
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", daysAgo(2), split(40, 120, 0, 8));
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", daysAgo(3), split(20, 80, 600, 8));
        c.add(IncidentCause.SPOT_RECLAIM, null, daysAgo(4), split(50, 90, 60, 8));
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", daysAgo(5), split(30, 110, 120, 8));
        c.add(IncidentCause.GPU_FAULT, "od-b", daysAgo(6), split(100, 200, 900, 16));
        c.add(IncidentCause.GPU_FAULT, "spot-a", daysAgo(6), split(60, 150, 30, 16));
        c.add(IncidentCause.SPOT_RECLAIM, "spot-a", daysAgo(8), split(1000, 10, 10, 8));
        return c.report();
    }

    private static RecoveryPhaseRow row(RecoveryPhaseReport r, String group) {
        return r.rows().stream()
                .filter(x -> x.group().equals(group))
                .findFirst()
                .orElseThrow();
    }

    private static void assertStats(PhaseStats s, double p50, double p90, double max, double total) {
        assertThat(s.p50Seconds()).as("%s p50", s.phase()).isEqualTo(p50);
        assertThat(s.p90Seconds()).as("%s p90", s.phase()).isEqualTo(p90);
        assertThat(s.maxSeconds()).as("%s max", s.phase()).isEqualTo(max);
        assertThat(s.totalSeconds()).as("%s total", s.phase()).isEqualTo(total);
    }

    @Test
    void byCauseOverAWeek() {
        RecoveryPhaseReport r = report(7, PhaseGroupBy.CAUSE);
        assertThat(r.from()).isEqualTo(daysAgo(7));
        assertThat(r.windowDays()).isEqualTo(7);
        assertThat(r.rows()).extracting(RecoveryPhaseRow::group).containsExactly("spot-reclaim", "gpu-fault");

        RecoveryPhaseRow spot = row(r, "spot-reclaim");
        assertThat(spot.incidents()).isEqualTo(5); // A B C D E; H stopped before the week
        assertThat(spot.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(spot.pool()).isNull();
        // Detection 10 40 20 50 30 → 10 20 30 40 50: p50 rank ⌈2.5⌉ = 3 → 30, p90 rank ⌈4.5⌉ = 5 → 50; Σ 150.
        assertStats(spot.stats(RecoveryPhase.DETECTION), 30, 50, 50, 150);
        // 150 s × 8 GPUs = 1,200 GPU-s = 1/3 GPU-hour.
        assertThat(spot.stats(RecoveryPhase.DETECTION).gpuHours()).isCloseTo(1 / 3.0, within(1e-9));
        // Restore 100 120 80 90 110 → 80 90 100 110 120: p50 100, p90 120; Σ 500.
        assertStats(spot.stats(RecoveryPhase.RESTORE), 100, 120, 120, 500);
        // Lost 300 0 600 60 120 → 0 60 120 300 600 (a zero counts): p50 120, p90 600; Σ 1,080.
        assertStats(spot.stats(RecoveryPhase.LOST_REWORK), 120, 600, 600, 1080);
        // No decision recorded: every value is 0.
        assertStats(spot.stats(RecoveryPhase.DECISION), 0, 0, 0, 0);

        RecoveryPhaseRow gpu = row(r, "gpu-fault");
        // Detection 100 60 → 60 100: p50 rank ⌈1⌉ = 1 → 60, p90 rank ⌈1.8⌉ = 2 → 100; Σ 160.
        assertStats(gpu.stats(RecoveryPhase.DETECTION), 60, 100, 100, 160);
        // 160 s × 16 GPUs = 2,560 GPU-s = 0.7111 GPU-hours.
        assertThat(gpu.stats(RecoveryPhase.DETECTION).gpuHours()).isCloseTo(2560 / 3600.0, within(1e-9));

        RecoveryPhaseRow all = r.all();
        assertThat(all.group()).isEqualTo("all");
        assertThat(all.incidents()).isEqualTo(7);
        // Detection 10 20 30 40 50 60 100: p50 rank ⌈3.5⌉ = 4 → 40, p90 rank ⌈6.3⌉ = 7 → 100; Σ 310.
        assertStats(all.stats(RecoveryPhase.DETECTION), 40, 100, 100, 310);
        // 150 × 8 + 160 × 16 = 3,760 GPU-s.
        assertThat(all.stats(RecoveryPhase.DETECTION).gpuHours()).isCloseTo(3760 / 3600.0, within(1e-9));
        assertThat(all.phases()).extracting(PhaseStats::phase).containsExactly(RecoveryPhase.values());
    }

    @Test
    void byPoolAnUnknownPoolHasItsOwnRow() {
        RecoveryPhaseReport r = report(7, PhaseGroupBy.POOL);
        // spot-a: A B C E G; then one each, by name ("(" sorts before letters).
        assertThat(r.rows()).extracting(RecoveryPhaseRow::group).containsExactly("spot-a", "(unknown)", "od-b");
        RecoveryPhaseRow spotA = row(r, "spot-a");
        assertThat(spotA.cause()).isNull();
        assertThat(spotA.pool()).isEqualTo("spot-a");
        // Detection 10 40 20 30 60 → 10 20 30 40 60: p50 30, p90 60; Σ 160.
        assertStats(spotA.stats(RecoveryPhase.DETECTION), 30, 60, 60, 160);
        assertStats(row(r, "(unknown)").stats(RecoveryPhase.DETECTION), 50, 50, 50, 50);
    }

    @Test
    void byCauseAndPool() {
        RecoveryPhaseReport r = report(7, PhaseGroupBy.CAUSE_POOL);
        assertThat(r.rows())
                .extracting(RecoveryPhaseRow::group)
                .containsExactly(
                        "spot-reclaim · spot-a", "gpu-fault · od-b", "gpu-fault · spot-a", "spot-reclaim · (unknown)");
        RecoveryPhaseRow spotA = row(r, "spot-reclaim · spot-a");
        assertThat(spotA.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(spotA.pool()).isEqualTo("spot-a");
        // Detection 10 40 20 30 → 10 20 30 40: p50 rank ⌈2⌉ = 2 → 20, p90 rank ⌈3.6⌉ = 4 → 40; Σ 100.
        assertStats(spotA.stats(RecoveryPhase.DETECTION), 20, 40, 40, 100);
    }

    @Test
    void thirtyDaysTakeTheOlderInterruptionIn() {
        RecoveryPhaseRow spot = row(report(30, PhaseGroupBy.CAUSE), "spot-reclaim");
        assertThat(spot.incidents()).isEqualTo(6);
        // Detection 10 20 30 40 50 1000: p50 rank 3 → 30, p90 rank ⌈5.4⌉ = 6 → 1000; Σ 1,150.
        assertStats(spot.stats(RecoveryPhase.DETECTION), 30, 1000, 1000, 1150);
    }

    @Test
    void anEmptyWindowHasNoPercentiles() {
        RecoveryPhaseReport r = new RecoveryPhaseCalculator(NOW, 7, PhaseGroupBy.CAUSE).report();
        assertThat(r.rows()).isEmpty();
        assertThat(r.all().incidents()).isZero();
        PhaseStats s = r.all().stats(RecoveryPhase.RESTORE);
        assertThat(s.p50Seconds()).isNull();
        assertThat(s.p90Seconds()).isNull();
        assertThat(s.maxSeconds()).isNull();
        assertThat(s.totalSeconds()).isZero();
    }

    @Test
    void nearestRankPercentiles() {
        long[] one = {7};
        assertThat(Percentiles.nearestRank(one, 0.5)).isEqualTo(7);
        assertThat(Percentiles.nearestRank(one, 0.9)).isEqualTo(7);
        long[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        // rank ⌈5⌉ = 5, ⌈9⌉ = 9.
        assertThat(Percentiles.nearestRank(ten, 0.5)).isEqualTo(5);
        assertThat(Percentiles.nearestRank(ten, 0.9)).isEqualTo(9);
        assertThat(List.of(PhaseGroupBy.parse("cause-pool"), PhaseGroupBy.parse("POOL")))
                .containsExactly(Optional.of(PhaseGroupBy.CAUSE_POOL), Optional.of(PhaseGroupBy.POOL));
    }
}
