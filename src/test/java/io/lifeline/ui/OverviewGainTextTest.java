package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.replay.FleetCounterfactual;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Overview's words for the ETTR with and without Lifeline's actions. */
class OverviewGainTextTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void saysBothFiguresWhatTheDifferenceIsWorthAndThatThePolicyActed() {
        FleetCounterfactual g =
                new FleetCounterfactual(AT, 5, 2, 2, 0.9437, 0.9330, 0.5, 4.0, "on", List.of(), List.of());
        assertThat(OverviewPresenter.gainFigure(g))
                .isEqualTo("ETTR with Lifeline 94.37 % / without Lifeline's actions 93.30 % (same history)");
        assertThat(OverviewPresenter.gainWorth(g))
                .isEqualTo("+1.07 points: 4.0 GPU-h of training kept (30 min) over 5 recent jobs, "
                        + "2 with an interruption notice.");
        assertThat(OverviewPresenter.gainCaption(g))
                .contains("notice policy off")
                .contains("each job's own checkpoint interval")
                .contains("is on here: Lifeline acted");
    }

    @Test
    void inDryRunSaysLifelineDidNotActAndCountsNothing() {
        FleetCounterfactual g = new FleetCounterfactual(
                AT,
                5,
                2,
                0,
                0.95,
                0.95,
                0,
                0,
                "dry-run",
                List.of("2 of the 2 jobs with notices are not under it"),
                List.of());
        assertThat(OverviewPresenter.gainWorth(g)).startsWith("No gain counted");
        assertThat(OverviewPresenter.gainCaption(g))
                .contains("is dry-run here")
                .contains("did not act")
                .contains("2 of the 2 jobs");
    }

    @Test
    void saysSoBeforeTheFirstReplay() {
        FleetCounterfactual g = FleetCounterfactual.none("on");
        assertThat(OverviewPresenter.gainFigure(g)).startsWith("Replaying");
        assertThat(OverviewPresenter.gainWorth(g)).isEmpty();
        assertThat(OverviewPresenter.gainCaption(g)).doesNotContain("not computed yet");
    }
}
