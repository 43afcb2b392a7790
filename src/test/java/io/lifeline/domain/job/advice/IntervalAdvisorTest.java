package io.lifeline.domain.job.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Young's and Daly's intervals and the first-order ETTR model, against numbers worked out by hand. */
class IntervalAdvisorTest {

    private static IntervalAdvisor.Exposure exposure(double nodeSeconds, long interruptions) {
        return new IntervalAdvisor.Exposure(List.of("pool-a"), nodeSeconds, interruptions);
    }

    /**
     * C = 40 s, 8 nodes, per-node MTBI = 160000 s → M = 20000 s, R = 110 s, current τ = 1800 s.
     * Young = √(2 · 40 · 20000) = √1600000 = 1264.911 s; Daly = 1264.911 − 40 = 1224.911 s.
     * ETTR(1800)     = 1 − 40/1800 − 1800/40000 − 110/20000 = 1 − 0.022222 − 0.045 − 0.0055 = 0.927278
     * ETTR(1224.911) = 1 − 0.032655 − 0.030623 − 0.0055 = 0.931222
     */
    @Test
    void dalyFirstOrderWhenTheCostIsSmallAgainstTheMtbi() {
        IntervalAdvice a =
                IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 40.0, 5, exposure(320_000, 2), 8, 110);
        assertThat(a.perNodeMtbiSeconds()).isEqualTo(160_000.0);
        assertThat(a.mtbiSeconds()).isEqualTo(20_000.0);
        assertThat(a.youngSeconds()).isCloseTo(1264.911, within(1e-3));
        assertThat(a.dalySeconds()).isCloseTo(1224.911, within(1e-3));
        assertThat(a.recommendedSeconds()).isEqualTo(a.dalySeconds());
        assertThat(a.formula()).startsWith("daly-first-order");
        assertThat(a.dalyValid()).isTrue();
        assertThat(a.expectedEttrCurrent()).isCloseTo(0.927278, within(1e-6));
        assertThat(a.expectedEttrRecommended()).isCloseTo(0.931222, within(1e-6));
        assertThat(a.model()).isEqualTo("ETTR ≈ 1 − C/τ − τ/(2M) − R/M (first order)");
        assertThat(a.notes()).isEmpty();
    }

    /**
     * C = 600 s, M = 3000 s: C/M = 0.2 is not ≪ 1. Daly's higher order with x = C/2M = 0.1:
     * √(2 · 600 · 3000) = 1897.367; × (1 + √0.1/3 + 0.1/9) = × 1.116520 = 2118.449; − 600 = 1518.449 s.
     */
    @Test
    void dalyHigherOrderWhenTheCostIsNotSmall() {
        IntervalAdvice a = IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 600.0, 3, exposure(3000, 1), 1, 0);
        assertThat(a.dalyValid()).isFalse();
        assertThat(a.recommendedSeconds()).isCloseTo(1518.449, within(1e-3));
        assertThat(a.formula()).startsWith("daly-higher-order");
        assertThat(a.notes()).anyMatch(n -> n.contains("first-order formulas do not hold"));
    }

    @Test
    void intervalIsTheMtbiWhenTheCostExceedsTwiceTheMtbi() {
        assertThat(IntervalAdvisor.dalyHigherOrder(700, 300)).isEqualTo(300);
    }

    @Test
    void missingInputsGiveNoRecommendationButSayWhy() {
        IntervalAdvice a = IntervalAdvisor.advise("ml/llm", null, null, null, 0, exposure(7200, 0), 4, 0);
        assertThat(a.recommendedSeconds()).isNull();
        assertThat(a.formula()).isEqualTo("none");
        assertThat(a.notes())
                .containsExactly(
                        "no completed checkpoint with a blocking time yet: C unknown",
                        "no interruption observed in pools [pool-a] over 2.0 node-hours: M unknown");
    }

    /**
     * The job of {@link #dalyFirstOrderWhenTheCostIsSmallAgainstTheMtbi} (C = 40 s, M = 20000 s, R = 110 s, current
     * τ = 1800 s) under a target of 92.95 %. ETTR(τ) ≥ T ⇔ 1 − C/τ − τ/(2M) − R/M ≥ T; with k = 1 − R/M − T =
     * 1 − 0.0055 − 0.9295 = 0.065, times τ: τ² − 2Mkτ + 2MC ≤ 0, τ = Mk ± √((Mk)² − 2MC) = 1300 ± √(1690000 −
     * 1600000) = 1300 ± 300: from 1000 s to 1600 s. Check: ETTR(1000) = 1 − 0.04 − 0.025 − 0.0055 = 0.9295, ETTR(1600)
     * = 1 − 0.025 − 0.04 − 0.0055 = 0.9295. The peak is at Young's √(2CM) = 1264.911 s: 1 − √(2C/M) − R/M =
     * 1 − √0.004 − 0.0055 = 1 − 0.0632456 − 0.0055 = 0.9312544. The current 1800 s (0.927278) is past the range, the
     * recommended 1224.911 s (0.931222) inside it.
     */
    @Test
    void theIntervalsThatKeepTheJobInsideItsObjectiveAreTheRangeWhereTheModelsEttrMeetsTheTarget() {
        IntervalAdvice a = IntervalAdvisor.againstTarget(
                IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 40.0, 5, exposure(320_000, 2), 8, 110), 0.9295);
        ObjectiveAdvice o = a.objective();
        assertThat(o.ettrTarget()).isEqualTo(0.9295);
        assertThat(o.reachable()).isTrue();
        assertThat(o.lowestSeconds()).isCloseTo(1000.0, within(1e-6));
        assertThat(o.highestSeconds()).isCloseTo(1600.0, within(1e-6));
        assertThat(o.bestSeconds()).isCloseTo(1264.911, within(1e-3));
        assertThat(o.bestEttr()).isCloseTo(0.9312544, within(1e-7));
        assertThat(o.currentMeets()).isFalse();
        assertThat(o.recommendedMeets()).isTrue();
        // Each end meets the target and the interval just beyond it does not.
        assertThat(IntervalAdvisor.expectedEttr(o.lowestSeconds(), 40, 20_000, 110))
                .isGreaterThanOrEqualTo(0.9295);
        assertThat(IntervalAdvisor.expectedEttr(o.lowestSeconds() - 1e-3, 40, 20_000, 110))
                .isLessThan(0.9295);
        assertThat(IntervalAdvisor.expectedEttr(o.highestSeconds(), 40, 20_000, 110))
                .isGreaterThanOrEqualTo(0.9295);
        assertThat(IntervalAdvisor.expectedEttr(o.highestSeconds() + 1e-3, 40, 20_000, 110))
                .isLessThan(0.9295);
        // The advice itself is unchanged.
        assertThat(a.withObjective(null))
                .isEqualTo(
                        IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 40.0, 5, exposure(320_000, 2), 8, 110));
    }

    /**
     * The same job under 95 %: the best the model gives is 0.9312544 at 1264.911 s (above), short of 0.95: no
     * interval keeps the job inside the objective, and neither the current nor the recommended one meets it.
     */
    @Test
    void aTargetAboveTheModelsPeakIsOutOfReachWithTheBestEttrAndItsInterval() {
        ObjectiveAdvice o = IntervalAdvisor.againstTarget(
                        IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 40.0, 5, exposure(320_000, 2), 8, 110),
                        0.95)
                .objective();
        assertThat(o.reachable()).isFalse();
        assertThat(o.lowestSeconds()).isNull();
        assertThat(o.highestSeconds()).isNull();
        assertThat(o.bestEttr()).isCloseTo(0.9312544, within(1e-7));
        assertThat(o.bestSeconds()).isCloseTo(1264.911, within(1e-3));
        assertThat(o.currentMeets()).isFalse();
        assertThat(o.recommendedMeets()).isFalse();
    }

    /**
     * C = 100 s, M = 3600 s, R = 0, no current interval, target 80 %: k = 0.2, Mk = 720, √(720² − 2 · 3600 · 100) =
     * √(518400 − 720000): negative, so out of reach; the peak 1 − √(200/3600) = 1 − 0.2357023 = 0.7642977 at
     * √720000 = 848.528 s. Target 70 %: k = 0.3, Mk = 1080, √(1166400 − 720000) = √446400 = 668.132: from
     * 411.868 s to 1748.132 s.
     */
    @Test
    void withoutACurrentIntervalWhetherItMeetsTheTargetIsUnknown() {
        IntervalAdvice a = IntervalAdvisor.advise("ml/llm", null, null, 100.0, 3, exposure(3600, 1), 1, 0);
        ObjectiveAdvice out = IntervalAdvisor.againstTarget(a, 0.8).objective();
        assertThat(out.reachable()).isFalse();
        assertThat(out.bestEttr()).isCloseTo(0.7642977, within(1e-7));
        assertThat(out.bestSeconds()).isCloseTo(848.528, within(1e-3));
        assertThat(out.currentMeets()).isNull();
        ObjectiveAdvice in = IntervalAdvisor.againstTarget(a, 0.7).objective();
        assertThat(in.reachable()).isTrue();
        assertThat(in.lowestSeconds()).isCloseTo(411.868, within(1e-3));
        assertThat(in.highestSeconds()).isCloseTo(1748.132, within(1e-3));
        assertThat(in.currentMeets()).isNull();
    }

    @Test
    void withoutCOrMTheObjectiveIsShownButNothingIsKnownOfIt() {
        ObjectiveAdvice o = IntervalAdvisor.againstTarget(
                        IntervalAdvisor.advise("ml/llm", 1800.0, "configured", null, 0, exposure(7200, 0), 4, 0), 0.9)
                .objective();
        assertThat(o).isEqualTo(new ObjectiveAdvice(0.9, null, null, null, null, null, null, null));
    }

    @Test
    void noTargetNoObjective() {
        IntervalAdvice a =
                IntervalAdvisor.advise("ml/llm", 1800.0, "configured", 40.0, 5, exposure(320_000, 2), 8, 110);
        assertThat(a.objective()).isNull();
        assertThat(IntervalAdvisor.againstTarget(a, 0)).isSameAs(a);
    }

    @Test
    void expectedEttrIsClampedToZeroAndOne() {
        assertThat(IntervalAdvisor.expectedEttr(10, 100, 50, 0)).isZero();
        assertThat(IntervalAdvisor.expectedEttr(1e9, 0, 1e30, 0)).isLessThanOrEqualTo(1.0);
    }
}
