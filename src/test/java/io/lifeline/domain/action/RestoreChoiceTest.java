package io.lifeline.domain.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.CheckpointCompleted;
import io.lifeline.domain.event.TrainerData.CheckpointStarted;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointLedger;
import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import io.lifeline.domain.job.checkpoint.LossWindow;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which checkpoint a restore takes: the newest trusted one unless told otherwise. */
class RestoreChoiceTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private static CheckpointHistory history() {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        save(l, "a", 100, 1.0);
        save(l, "b", 200, Double.NaN);
        l.started(new CheckpointStarted("c", 300, false), T0, ProductiveMark.ZERO);
        return l.history("ml/x");
    }

    private static void save(CheckpointLedger l, String id, long step, double loss) {
        l.started(
                new CheckpointStarted(id, step, false, null, loss),
                T0,
                ProductiveMark.ZERO,
                new LossWindow().judge(loss, 10));
        l.completed(
                new CheckpointCompleted(id, step, 1L, 1.0, 1.0, null, null, 1, false, 1),
                T0.plusSeconds(step),
                CheckpointStorage.defaults().classify("s3://b/" + id, null, List.of(), List.of("n")));
    }

    @Test
    void withoutANameTheNewestTrustedCompleteCheckpoint() {
        assertThat(RestoreChoice.of("ml/x", history(), "", false).checkpointId())
                .isEqualTo("a");
        assertThat(RestoreChoice.of("ml/x", history(), null, true).checkpointId())
                .isEqualTo("b");
    }

    @Test
    void aNamedSuspectCheckpointOnlyWhenAllowed() {
        RestoreChoice refused = RestoreChoice.of("ml/x", history(), "b", false);
        assertThat(refused.checkpointId()).isNull();
        assertThat(refused.refusal()).contains("suspect (non_finite_loss").contains("params.allowSuspect=true");
        assertThat(RestoreChoice.of("ml/x", history(), "b", true).checkpointId())
                .isEqualTo("b");
        assertThat(RestoreChoice.of("ml/x", history(), "c", true).refusal()).contains("only a complete checkpoint");
        assertThat(RestoreChoice.of("ml/x", history(), "z", true).refusal()).contains("has no checkpoint z");
    }

    @Test
    void noTrustedCheckpointSaysHowManyAreSuspect() {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        save(l, "b", 200, Double.NaN);
        RestoreChoice c = RestoreChoice.of("ml/x", l.history("ml/x"), "", false);
        assertThat(c.refusal())
                .isEqualTo("job ml/x has no trusted checkpoint (1 suspect: params.allowSuspect=true takes them)");
        assertThat(RestoreChoice.of("ml/x", null, "", false).refusal()).isEqualTo("job ml/x has no trusted checkpoint");
    }
}
