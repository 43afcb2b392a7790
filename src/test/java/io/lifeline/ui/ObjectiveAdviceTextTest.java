package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job page's objective sentence, on the advice of IntervalAdvisorTest's job (C = 40 s, M = 20000 s, R = 110 s). */
class ObjectiveAdviceTextTest {

    private static IntervalAdvice advice(Double c) {
        return IntervalAdvisor.advise(
                "ml/llm",
                1800.0,
                "configured",
                c,
                5,
                new IntervalAdvisor.Exposure(List.of("pool-a"), 320_000, 2),
                8,
                110);
    }

    @Test
    void aJobUnderNoObjectiveHasNoSentence() {
        assertThat(ObjectiveAdviceText.of(advice(40.0))).isNull();
    }

    /** From 1000 s to 1600 s meet 92.95 %; 1800 s (92.7 %) does not, 1224.9 s (93.1 %) does. */
    @Test
    void aReachableTargetGivesTheRangeAndWhetherTheCurrentAndRecommendedIntervalsMeetIt() {
        assertThat(ObjectiveAdviceText.of(IntervalAdvisor.againstTarget(advice(40.0), 0.9295)))
                .isEqualTo("Objective: ETTR ≥ 93.0 %. Intervals from 16 min 40 s to 26 min 40 s keep the job inside"
                        + " it at the observed interruption rate (expected ETTR 92.7 % now (short of it), 93.1 % at"
                        + " the recommended interval (meets it)).");
    }

    /** The peak is 93.1 % at Young's 1264.9 s. */
    @Test
    void anUnreachableTargetGivesTheBestEttrAndItsInterval() {
        assertThat(ObjectiveAdviceText.of(IntervalAdvisor.againstTarget(advice(40.0), 0.95)))
                .startsWith("Objective: ETTR ≥ 95.0 %. No interval keeps the job inside it at the observed"
                        + " interruption rate: the best is 93.1 % at 21 min 4 s");
    }

    @Test
    void unknownInputsSaySo() {
        assertThat(ObjectiveAdviceText.of(IntervalAdvisor.againstTarget(advice(null), 0.95)))
                .isEqualTo("Objective: ETTR ≥ 95.0 %. Which intervals keep the job inside it is known once C and M"
                        + " are measured.");
    }
}
