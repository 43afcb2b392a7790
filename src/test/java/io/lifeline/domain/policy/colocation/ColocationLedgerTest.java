package io.lifeline.domain.policy.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.policy.colocation.ColocationLedger.Rescale;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColocationLedgerTest {

    private static final Instant T = Instant.parse("2024-05-01T06:00:00Z");

    @Test
    void aShrinkAndTheGrowBackMakeOneEpisodeWithItsGpuHours() {
        List<ColocationLedger.Episode> e = ColocationLedger.episodes(
                List.of(
                        new Rescale("a/llm", "a100", T, 4, 2, 8, 0, true, "s1"),
                        new Rescale("a/llm", "a100", T.plusSeconds(12 * 3600), 2, 4, 8, 0, true, "g1")),
                T.plusSeconds(86_400));
        // 2 nodes × 8 GPUs × 12 h.
        assertThat(e).singleElement().satisfies(x -> {
            assertThat(x.gpuHoursYielded()).isEqualTo(192.0);
            assertThat(x.closedAt()).isEqualTo(T.plusSeconds(12 * 3600));
            assertThat(x.gpusLentNow()).isZero();
            assertThat(x.maxGpusLent()).isEqualTo(16);
            assertThat(x.reworkGpuHours()).isZero();
            assertThat(x.checkpointFirst()).isTrue();
            assertThat(x.actions()).containsExactly("s1", "g1");
        });
    }

    @Test
    void anOpenEpisodeCountsUpToNowAndPoolsAddUp() {
        List<ColocationLedger.Episode> e = ColocationLedger.episodes(
                List.of(
                        new Rescale("a/llm", "a100", T, 4, 2, 8, 0, true, "s1"),
                        new Rescale("b/vit", "a100", T.plusSeconds(1800), 3, 1, 4, 1.5, false, "s2")),
                T.plusSeconds(3600));
        assertThat(e).extracting(ColocationLedger.Episode::gpuHoursYielded).containsExactly(16.0, 4.0);
        assertThat(ColocationLedger.pools(e)).singleElement().satisfies(p -> {
            assertThat(p.gpusLentNow()).isEqualTo(24);
            assertThat(p.jobsLendingNow()).isEqualTo(2);
            assertThat(p.gpuHoursYielded()).isEqualTo(20.0);
            assertThat(p.reworkGpuHours()).isEqualTo(1.5);
        });
    }

    @Test
    void aPartialGrowKeepsTheEpisodeOpenAndAGrowAloneIsNoEpisode() {
        List<ColocationLedger.Episode> e = ColocationLedger.episodes(
                List.of(
                        new Rescale("a/llm", "a100", T.minusSeconds(60), 2, 3, 8, 0, true, "g0"),
                        new Rescale("a/llm", "a100", T, 4, 1, 8, 0, true, "s1"),
                        new Rescale("a/llm", "a100", T.plusSeconds(3600), 1, 3, 8, 0, true, "g1")),
                T.plusSeconds(7200));
        // 3 nodes lent for an hour, then 1 for an hour.
        assertThat(e).singleElement().satisfies(x -> {
            assertThat(x.gpuHoursYielded()).isEqualTo(32.0);
            assertThat(x.closedAt()).isNull();
            assertThat(x.gpusLentNow()).isEqualTo(8);
        });
    }
}
