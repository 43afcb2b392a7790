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

    @Test
    void expectedEttrIsClampedToZeroAndOne() {
        assertThat(IntervalAdvisor.expectedEttr(10, 100, 50, 0)).isZero();
        assertThat(IntervalAdvisor.expectedEttr(1e9, 0, 1e30, 0)).isLessThanOrEqualTo(1.0);
    }
}
