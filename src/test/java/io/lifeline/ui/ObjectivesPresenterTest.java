package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.objective.BurnThresholds;
import io.lifeline.domain.objective.Objective;
import io.lifeline.domain.objective.ObjectiveScope;
import io.lifeline.domain.objective.ObjectiveState;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.security.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Objectives page's words for a hand-made status: 400 GPU-hours held at a 95 % target, so a budget of 20; 12 spent
 * (ETTR 97 %), 8 left (40 %); priced at 4 a GPU-hour: 80, 48 and 32; burn rates 5m 9, 30m 7.5, 1h 8, 6h 6.5 (the slow
 * pair over 6, the fast pair under 14.4); 1.5 hours to exhaustion.
 */
class ObjectivesPresenterTest {

    static ObjectiveStatus status(String name, String scope, ObjectiveState state, double remaining, Double hours) {
        Map<String, Double> burn = new LinkedHashMap<>();
        burn.put("5m", 9.0);
        burn.put("30m", 7.5);
        burn.put("1h", 8.0);
        burn.put("6h", 6.5);
        Map<String, Double> byCause = new LinkedHashMap<>();
        byCause.put("checkpoint", 3.0);
        byCause.put("hardware", 0.0);
        byCause.put("spot_reclaim", 9.0);
        return new ObjectiveStatus(
                new Objective(name, ObjectiveScope.parse(scope), 0.95, Duration.ofDays(7), 50.0, null),
                state,
                Instant.parse("2026-03-01T10:00:00Z"),
                2,
                List.of("research/llama", "research/mixtral"),
                400,
                388,
                0.97,
                20,
                20 - remaining,
                remaining,
                80.0,
                48.0,
                32.0,
                1.0,
                9,
                36.0,
                41.0,
                null,
                Map.of("lost_rework", 5.0, "checkpoint", 3.0),
                byCause,
                burn,
                false,
                true,
                hours,
                1_440_000,
                1_396_800);
    }

    static final ObjectiveStatus BURNING =
            status("research-ettr", "namespace:research", ObjectiveState.BURNING, 8, 1.5);

    @Test
    void saysWhereTheObjectiveStandsWithItsBudgetBurnAndExhaustion() {
        BurnThresholds t = BurnThresholds.defaults();
        assertThat(ObjectivesPresenter.state(ObjectiveState.BURNING)).isEqualTo("Burning");
        assertThat(ObjectivesPresenter.theme(ObjectiveState.MET)).isEqualTo("success");
        assertThat(ObjectivesPresenter.theme(ObjectiveState.EXHAUSTED)).isEqualTo("error");
        assertThat(ObjectivesPresenter.headline(BURNING.objective()))
                .isEqualTo("namespace research · ETTR ≥ 95.0 % over 7d");
        assertThat(ObjectivesPresenter.ettr(BURNING)).isEqualTo("97.0 % (target 95.0 %)");
        assertThat(ObjectivesPresenter.budget(BURNING))
                .isEqualTo("12.0 GPU-h spent of 20.0 GPU-h · 8.0 GPU-h left (40 %)");
        assertThat(ObjectivesPresenter.spentShare(BURNING)).isEqualTo(0.6);
        assertThat(ObjectivesPresenter.money(BURNING)).isEqualTo("48.00 spent of 80.00 · 32.00 left");
        assertThat(ObjectivesPresenter.limits(BURNING)).isEqualTo("lost 9.0 GPU-h of 50.0 GPU-h allowed");
        assertThat(ObjectivesPresenter.burns(BURNING, t)).isEqualTo("5m 9.0× · 30m 7.5× ▲ · 1h 8.0× · 6h 6.5× ▲");
        assertThat(ObjectivesPresenter.burnVerdict(BURNING, t)).isEqualTo("Slow burn (6h and 30m ≥ 6×)");
        assertThat(ObjectivesPresenter.exhaustion(BURNING)).isEqualTo("in 1.5 h at the last hour's pace");
        assertThat(ObjectivesPresenter.spentByCause(BURNING))
                .extracting(Map.Entry::getKey)
                .containsExactly("spot_reclaim", "checkpoint");
        assertThat(ObjectivesPresenter.spentLine(BURNING)).isEqualTo("spot reclaim 9.0 GPU-h, checkpoint 3.0 GPU-h");
        assertThat(ObjectivesPresenter.jobHref("research/llama 3")).isEqualTo("jobs/research/llama%203");
        assertThat(ObjectivesPresenter.objectivesHref("research/llama")).isEqualTo("objectives?job=research%2Fllama");
    }

    @Test
    void anOverspentBudgetFillsTheBarAndSaysByHowMuch() {
        ObjectiveStatus over = status("x", "job:research/llama", ObjectiveState.EXHAUSTED, -3, 0.0);
        assertThat(ObjectivesPresenter.spentShare(over)).isEqualTo(1.0);
        assertThat(ObjectivesPresenter.budget(over)).endsWith("· overspent by 3.0 GPU-h");
        assertThat(ObjectivesPresenter.exhaustion(over)).isEqualTo("already spent");
        assertThat(ObjectiveSection.left(over)).isEqualTo("overspent by 3.0 GPU-h");
        ObjectiveStatus notSpent = status("y", "namespace:vision", ObjectiveState.MET, 8, null);
        assertThat(ObjectivesPresenter.exhaustion(notSpent)).isEqualTo("not being spent");
        assertThat(ObjectivesView.counts(List.of(BURNING, notSpent, over)))
                .isEqualTo("3 objectives: 1 burning, 1 met, 1 exhausted");
    }

    @Test
    void aNamespacedScopeSeesTheObjectivesOfItsNamespacesOnlyAsTheApiShowsThem() {
        ObjectiveStatus job = status("a", "job:research/llama", ObjectiveState.MET, 8, null);
        ObjectiveStatus vision = status("b", "namespace:vision", ObjectiveState.MET, 8, null);
        ObjectiveStatus pool = status("c", "pool:spot-p5", ObjectiveState.MET, 8, null);
        List<ObjectiveStatus> all = List.of(BURNING, job, vision, pool);
        assertThat(ObjectivesGateway.visible(Scope.namespaces(List.of("research")), all))
                .extracting(s -> s.objective().name())
                .containsExactly("research-ettr", "a");
        assertThat(ObjectivesGateway.visible(Scope.everything(), all)).hasSize(4);
    }
}
