package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.HangFacts;
import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job-hung rule: fires at once for an open hang incident, names its suspects, resolves when the incident closes. */
class JobHungRuleTest {

    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");
    private static final String DETAIL =
            "training hang: no progress for 95 s (threshold 60 s), suspect rank 3 on gpu-7: stopped first, at step 41";

    private static AlertSnapshot snapshot(HangFacts hang) {
        JobFacts j = new JobFacts("ml/llm", "ml", false, 0L, 3_600_000L, List.of(), false, null, false, null, hang);
        return new AlertSnapshot(List.of(j), List.of(), List.of(), List.of(), List.of(), null);
    }

    private static HangFacts hang(List<String> nodes) {
        return new HangFacts("ml/llm#2", T0, 95_000, nodes, DETAIL);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void anOpenHangIncidentFiresAtOnceNamingItsSuspectsAndResolvesWhenItCloses() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(null), 0).changes()).isEmpty();
        assertThat(at(e, snapshot(hang(List.of("gpu-7"))), 1).changes())
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.to()).isEqualTo(AlertState.FIRING);
                    assertThat(c.alert().labels())
                            .containsEntry("alertname", "JobHung")
                            .containsEntry("severity", "critical")
                            .containsEntry("namespace", "ml")
                            .containsEntry("job", "ml/llm")
                            .containsEntry("incident", "ml/llm#2");
                    assertThat(c.alert().annotations().get("summary")).isEqualTo("ml/llm is hung: suspect on gpu-7");
                    assertThat(c.alert().annotations().get("description"))
                            .contains("95s", "suspect rank 3 on gpu-7", "ml/llm#2", "lifelinectl stacks ml/llm");
                });
        assertThat(at(e, snapshot(hang(List.of("gpu-7"))), 2).changes()).isEmpty();
        assertThat(at(e, snapshot(null), 3).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void severalSuspectsAreAllNamedAndNoneAreMadeUp() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(hang(List.of("gpu-7", "gpu-9"))), 0).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.alert().annotations().get("summary"))
                        .isEqualTo("ml/llm is hung: suspects on gpu-7, gpu-9"));
        AlertEngine other = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(other, snapshot(hang(List.of())), 0).changes())
                .singleElement()
                .satisfies(
                        c -> assertThat(c.alert().annotations().get("summary")).isEqualTo("ml/llm is hung"));
    }

    @Test
    void aNamespaceCanSwitchItOff() {
        AlertRules rules =
                AlertRules.defaults().withNamespace("ml", AlertRule.JOB_HUNG, RuleSettings.Override.disable());
        AlertEngine e = new AlertEngine(rules, 100, 10);
        assertThat(at(e, snapshot(hang(List.of("gpu-7"))), 0).changes()).isEmpty();
    }

    @Test
    void theRuleIsNamedJobHung() {
        assertThat(AlertRule.parse("JobHung")).isEqualTo(AlertRule.JOB_HUNG);
        assertThat(AlertRule.parse("job-hung")).isEqualTo(AlertRule.JOB_HUNG);
    }
}
