package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.CheckpointCompleted;
import io.lifeline.domain.job.checkpoint.CheckpointLedger;
import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import io.lifeline.domain.job.checkpoint.NoSpaceRefusal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checkpoint-no-space rule: a save refused for space, until a checkpoint completes again or the window passes. */
class CheckpointNoSpaceRuleTest {

    private static final Instant T0 = Instant.parse("2026-12-07T12:00:00Z");

    private static AlertSnapshot snapshot(NoSpaceRefusal r) {
        JobFacts j =
                new JobFacts("ml/llm", "ml", true, 0L, 3_600_000L, List.of(), false, null, false, null, null, null, r);
        return new AlertSnapshot(List.of(j), List.of(), List.of(), List.of(), List.of(), null);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void aRefusalFiresWithTheNumbersAndStopsOnceACheckpointCompletes() {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        l.failed(
                new TrainerData.CheckpointFailed(
                        "c2", 200, "NoSpaceError: not enough", TrainerData.FailReason.NO_SPACE, 1000L, 1250L),
                T0);
        NoSpaceRefusal r = NoSpaceRefusal.latest(l.history("ml/llm"));
        assertThat(r).isNotNull();
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(r), 1).changes()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
            assertThat(c.alert().labels())
                    .containsEntry("alertname", "CheckpointNoSpace")
                    .containsEntry("job", "ml/llm");
            assertThat(c.alert().annotations().get("description"))
                    .contains("c2", "step 200", "1000 bytes free, 1250 needed");
        });
        l.completed(
                new CheckpointCompleted("c3", 300, 1L, 1.0, 1.0, null, null, 1, false, 1),
                T0.plusSeconds(120),
                CheckpointStorage.defaults().classify("s3://b/c3", null, List.of(), List.of("n")));
        assertThat(NoSpaceRefusal.latest(l.history("ml/llm"))).isNull();
        assertThat(at(e, snapshot(null), 3).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void anOtherFailureIsNotARefusalAndAnOldRefusalIsOutsideTheWindow() {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        l.failed(new TrainerData.CheckpointFailed("c1", 100, "SlowDown"), T0);
        assertThat(NoSpaceRefusal.latest(l.history("ml/llm"))).isNull();
        NoSpaceRefusal old = new NoSpaceRefusal("c0", 1, T0, "no_space");
        assertThat(at(new AlertEngine(AlertRules.defaults(), 100, 10), snapshot(old), 61)
                        .changes())
                .isEmpty();
    }
}
