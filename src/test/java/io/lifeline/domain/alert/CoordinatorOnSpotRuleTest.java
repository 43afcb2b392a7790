package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The coordinator-on-spot rule: a flagged active job goes pending, fires after the rule's 10 minutes, then resolves. */
class CoordinatorOnSpotRuleTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final String WARNING = "rank 0 and the rendezvous endpoint run on spot node s1 (pool mixed), while "
            + "on-demand capacity exists in pool mixed: a reclaim of that node restarts every rank.";

    private static AlertSnapshot snapshot(boolean flagged, boolean active) {
        JobFacts j = new JobFacts(
                "ml/llm", "ml", active, 0L, 3_600_000L, List.of(), flagged, flagged ? WARNING : null, false);
        return new AlertSnapshot(List.of(j), List.of(), List.of(), List.of(), List.of(), null);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void aFlaggedJobFiresAfterTheForDurationAndResolvesOnceMoved() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(true, true), 0).changes()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(AlertState.PENDING);
            assertThat(c.alert().labels())
                    .containsEntry("alertname", "CoordinatorOnSpot")
                    .containsEntry("job", "ml/llm")
                    .containsEntry("namespace", "ml")
                    .containsEntry("severity", "warning");
            assertThat(c.alert().annotations().get("description")).isEqualTo("ml/llm: " + WARNING);
        });
        assertThat(at(e, snapshot(true, true), 9).changes()).isEmpty();
        assertThat(at(e, snapshot(true, true), 10).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.FIRING));
        assertThat(at(e, snapshot(false, true), 20).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void aJobThatDoesNotTrainIsNotAlerted() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(true, false), 0).changes()).isEmpty();
    }
}
