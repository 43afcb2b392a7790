package io.lifeline.domain.job.straggler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.ElasticPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class StragglerDetectorTest {

    private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");
    private static final StragglerConfig CONFIG = new StragglerConfig(Duration.ofSeconds(10), 0.2, 3, 3, 3, 4096);
    /** Eight ranks, four per node, as a membership would place them. */
    private static final IntFunction<String> NODES = r -> r < 4 ? "node-a" : "node-b";

    private final StragglerDetector detector = new StragglerDetector(CONFIG);
    private final Random random = new Random(42);

    /** Every rank reports once in window {@code w}: 0.100 s a step with ±5 % noise, rank {@code slowRank} slower. */
    private void window(int w, int ranks, int slowRank, double slowSeconds) {
        for (int r = 0; r < ranks; r++) {
            double s = r == slowRank ? slowSeconds : 0.1 * (1 + 0.05 * random.nextGaussian());
            detector.report(T0.plusSeconds(10L * w + 1 + r % 8), r, r % 4, "reported-" + r, s, NODES, 8);
        }
    }

    @Test
    void healthyNoiseIsNoStraggler() {
        for (int w = 0; w < 200; w++) {
            window(w, 8, -1, 0);
            assertThat(detector.view().stragglers()).as("window %d", w).isEmpty();
        }
        StragglerView v = detector.view();
        assertThat(v.windows()).isEqualTo(199);
        assertThat(v.ranksReporting()).isEqualTo(8);
        assertThat(v.medianStepSeconds()).isCloseTo(0.1, within(0.01));
        assertThat(v.gpuHoursLost()).isZero();
        assertThat(v.suggestion()).isNull();
    }

    @Test
    void oneSlowRankIsFoundWithinTheHysteresisAttributedToItsNodeAndGpuAndCosted() {
        for (int w = 0; w < 5; w++) {
            window(w, 8, -1, 0);
        }
        // Rank 5 (node-b, local rank 1) takes 0.2 s from window 5 on; windows are judged when the next one starts.
        window(5, 8, 5, 0.2);
        window(6, 8, 5, 0.2);
        window(7, 8, 5, 0.2);
        assertThat(detector.view().stragglers())
                .as("two slow windows judged: not yet")
                .isEmpty();
        window(8, 8, 5, 0.2);
        StragglerView v = detector.view();
        assertThat(v.stragglers()).hasSize(1);
        Straggler s = v.stragglers().get(0);
        assertThat(s.rank()).isEqualTo(5);
        assertThat(s.node()).as("from the membership, not the report").isEqualTo("node-b");
        assertThat(s.localRank()).isEqualTo(1);
        assertThat(s.gpuIndex()).isEqualTo(1);
        assertThat(s.slowdown()).isCloseTo(2.0, within(0.15));
        assertThat(s.slowSince()).isEqualTo(T0.plusSeconds(50));
        assertThat(s.flaggedAt()).isEqualTo(T0.plusSeconds(80));
        assertThat(v.nodes()).containsExactly("node-b");
        // Three slow windows of 10 s at (0.2 − 0.1) / 0.2 of 8 GPUs = 3 × 40 GPU-seconds.
        assertThat(v.gpuHoursLost() * 3600).isCloseTo(120, within(8.0));
    }

    @Test
    void aRecoveredRankIsClearedAfterTheNormalWindowsAndTheCostStops() {
        for (int w = 0; w < 10; w++) {
            window(w, 8, 2, 0.25);
        }
        assertThat(detector.view().stragglers()).extracting(Straggler::rank).containsExactly(2);
        double lost = detector.view().gpuHoursLost();
        window(10, 8, -1, 0);
        window(11, 8, -1, 0);
        window(12, 8, -1, 0);
        assertThat(detector.view().stragglers())
                .as("two normal windows judged: still flagged")
                .hasSize(1);
        window(13, 8, -1, 0);
        assertThat(detector.view().stragglers()).isEmpty();
        // Window 9 was judged when window 10 began: (0.25 − 0.1) / 0.25 × 8 GPUs × 10 s more; then nothing.
        assertThat(detector.view().gpuHoursLost() * 3600).isCloseTo(lost * 3600 + 48, within(3.0));
        double after = detector.view().gpuHoursLost();
        for (int w = 14; w < 30; w++) {
            window(w, 8, -1, 0);
        }
        window(30, 8, -1, 0);
        assertThat(detector.view().gpuHoursLost())
                .as("healthy windows cost nothing")
                .isEqualTo(after);
    }

    @Test
    void aShortSlowSpellIsNoStragglerAndCostsNothing() {
        window(0, 8, -1, 0);
        window(1, 8, 3, 0.3);
        window(2, 8, 3, 0.3);
        window(3, 8, -1, 0);
        window(4, 8, -1, 0);
        assertThat(detector.view().stragglers()).isEmpty();
        assertThat(detector.view().gpuHoursLost()).isZero();
    }

    @Test
    void twoRanksAreEnoughToTellTheSlowOne() {
        for (int w = 0; w < 6; w++) {
            window(w, 2, 1, 0.15);
        }
        assertThat(detector.view().stragglers()).extracting(Straggler::rank).containsExactly(1);
    }

    @Test
    void aRankThatFallsSilentIsCleared() {
        for (int w = 0; w < 6; w++) {
            window(w, 8, 7, 0.3);
        }
        assertThat(detector.view().stragglers()).hasSize(1);
        for (int w = 6; w < 10; w++) {
            window(w, 7, -1, 0); // rank 7 left
        }
        assertThat(detector.view().stragglers()).isEmpty();
    }

    @Test
    void lateAndMalformedReportsAreIgnoredAndRanksAreBounded() {
        StragglerDetector small = new StragglerDetector(new StragglerConfig(Duration.ofSeconds(10), 0.2, 3, 3, 3, 4));
        for (int r = 0; r < 6; r++) {
            small.report(T0.plusSeconds(15), r, null, null, 0.1, NODES, 0);
        }
        small.report(T0.plusSeconds(25), 0, null, null, 0.1, NODES, 0);
        small.report(T0.plusSeconds(5), 0, null, null, 0.1, NODES, 0);
        small.report(T0.plusSeconds(26), 1, null, null, Double.NaN, NODES, 0);
        small.report(T0.plusSeconds(26), -1, null, null, 0.1, NODES, 0);
        assertThat(small.ignored()).isEqualTo(5);
        assertThat(small.view().ranksReporting()).isEqualTo(4);
    }

    @Test
    void theDrainIsOfferedWithinTheElasticBoundsOnly() {
        for (int w = 0; w < 6; w++) {
            window(w, 8, 6, 0.3);
        }
        StragglerView v = detector.view();
        SuggestedDrain ok = SuggestedDrain.of("ml/llm", v, new ElasticPolicy(1, 4, 4, 3), 2);
        assertThat(ok.node()).isEqualTo("node-b");
        assertThat(ok.withinElasticBounds()).isTrue();
        assertThat(ok.reason()).contains("rank 6", "ml/llm", "node-b");
        assertThat(SuggestedDrain.of("ml/llm", v, new ElasticPolicy(2, 4, 4, 3), 2)
                        .withinElasticBounds())
                .isFalse();
        assertThat(SuggestedDrain.of("ml/llm", StragglerView.NONE, null, 2)).isNull();
    }
}
