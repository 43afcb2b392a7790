package io.lifeline.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.StepRunner.StepOutcome;
import io.lifeline.action.view.StepResult;
import io.lifeline.domain.action.StepState;
import org.junit.jupiter.api.Test;

/** Step results go to the store as JSON and come back typed; a step of an earlier version is still understood. */
class StepResultTest {

    @Test
    void aCheckpointRequestRoundTripsThroughItsJson() {
        StepResult r = new StepResult.CheckpointRequested(4_200, "prepare_exit", "a-1:checkpoint:ml/a");
        String json = StepResult.toJson(r);
        assertThat(json).contains("\"kind\":\"checkpoint-requested\"").contains("\"baselineStep\":4200");
        assertThat(StepResult.fromJson(json)).isEqualTo(r);
        assertThat(StepResult.fromJson(null)).isNull();
        assertThat(StepResult.toJson(null)).isNull();
    }

    @Test
    void theBaselineIsReadTypedAndFromTheDetailOfAnEarlierVersion() {
        StepOutcome typed = StepOutcome.done(
                "checkpoint_now sent; newest good checkpoint at step 17",
                new StepResult.CheckpointRequested(17, "checkpoint_now", "x"));
        assertThat(ActionProcedures.baseline(typed)).isEqualTo(17);
        StepOutcome legacy = new StepOutcome(StepState.DONE, "baselineStep=42 (checkpoint_now sent)");
        assertThat(ActionProcedures.baseline(legacy)).isEqualTo(42);
        assertThat(ActionProcedures.baseline(StepOutcome.done("nothing recorded")))
                .isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void theCheckpointARestoreChecksRoundTripsThroughItsJson() {
        StepResult r = new StepResult.CheckpointChecked("ml-a-ckpt-7", 2, "s3://ckpt/ml-a/7");
        String json = StepResult.toJson(r);
        assertThat(json).contains("\"kind\":\"checkpoint-checked\"").contains("\"restoreCount\":2");
        assertThat(StepResult.fromJson(json)).isEqualTo(r);
        StepOutcome typed = StepOutcome.done("checkpoint ml-a-ckpt-7 is verified", StepResult.fromJson(json));
        assertThat(ActionProcedures.checked(typed, "ml-a-ckpt-7")).isEqualTo(r);
    }

    @Test
    void aRestoreCheckOfAnEarlierVersionIsReadFromItsDetail() {
        StepOutcome legacy = new StepOutcome(StepState.DONE, "restoreCount=3 uri=s3://ckpt/ml-a/7");
        assertThat(ActionProcedures.checked(legacy, "ml-a-ckpt-7"))
                .isEqualTo(new StepResult.CheckpointChecked("ml-a-ckpt-7", 3, "s3://ckpt/ml-a/7"));
        StepOutcome noUri = new StepOutcome(StepState.DONE, "restoreCount=0 uri=");
        assertThat(ActionProcedures.checked(noUri, "c1")).isEqualTo(new StepResult.CheckpointChecked("c1", 0, ""));
    }
}
