package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.GoodputView;
import org.junit.jupiter.api.Test;

/**
 * Trainers asked to prepare to exit save, then hold still until they restart: the time between that save and the
 * stop is a pause, not training, so the stop loses nothing.
 */
class PrepareExitAccountingTest {

    private static JobDriver savedThenEvicted(boolean acknowledged) {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:10:00", 600);
        if (acknowledged) {
            d.apply(d.event(
                    "10:10:01",
                    EventType.TRAINER_COMMAND_ACK,
                    new TrainerData.CommandAck(
                            "act-1:checkpoint", "prepare_exit", TrainerData.AckStatus.ACCEPTED, "saving")));
        }
        d.checkpointStarted("10:10:02", "exit-1", 602, false)
                .checkpointCompleted("10:10:32", "exit-1", 602, 30, 30, false)
                .podEvicted("10:10:40", "llm-worker-0", "n1")
                .now("10:10:40");
        return d;
    }

    @Test
    void aStopAfterAPrepareExitSaveLosesNoWork() {
        GoodputView g = savedThenEvicted(true).goodput();
        assertThat(g.lostReworkMillis()).isZero();
        assertThat(g.rescaleMillis()).isEqualTo(8_000);
    }

    @Test
    void anAsynchronousExitSaveHoldsTheTrainersWhileItUploadsSoTheStopLosesNoWork() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:10:00", 600);
        d.apply(d.event(
                "10:10:01",
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck(
                        "act-1:checkpoint", "prepare_exit", TrainerData.AckStatus.ACCEPTED, "saving")));
        // Blocked 10 s staging the state of step 602, then held (no step trained) while it uploads for 80 s more.
        d.checkpointStarted("10:10:02", "exit-1", 602, true)
                .checkpointCompleted("10:11:32", "exit-1", 602, 90, 10, true)
                .podEvicted("10:11:40", "llm-worker-0", "n1")
                .now("10:11:40");
        assertThat(d.goodput().lostReworkMillis()).isZero();
    }

    @Test
    void trainersThatSayTheySaveToExitHoldFromThatSaveOnWithoutAPrepareExitCommand() {
        // Trainers pausing for a planned membership change save "to exit" on their own: the restart loses nothing.
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:10:00", 600);
        d.apply(d.event(
                "10:10:02",
                EventType.TRAINER_CHECKPOINT_STARTED,
                new TrainerData.CheckpointStarted("exit-1", 602, true, TrainerData.SaveReason.PREPARE_EXIT)));
        d.checkpointCompleted("10:11:32", "exit-1", 602, 90, 10, true)
                .podEvicted("10:11:40", "llm-worker-0", "n1")
                .now("10:11:40");
        assertThat(d.goodput().lostReworkMillis()).isZero();
    }

    @Test
    void withoutPrepareExitTheTimeAfterTheSaveIsLost() {
        GoodputView g = savedThenEvicted(false).goodput();
        assertThat(g.lostReworkMillis()).isEqualTo(8_000);
    }

    @Test
    void progressAfterTheSaveEndsTheHold() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:10:00", 600);
        d.apply(d.event(
                "10:10:01",
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck("c1", "prepare_exit", TrainerData.AckStatus.ACCEPTED, null)));
        d.checkpointStarted("10:10:02", "exit-1", 602, false)
                .checkpointCompleted("10:10:32", "exit-1", 602, 30, 30, false)
                .progress("10:10:35", 605)
                .podEvicted("10:10:45", "llm-worker-0", "n1")
                .now("10:10:45");
        // Held 3 s, then trained 10 s that the stop threw away.
        assertThat(d.goodput().lostReworkMillis()).isEqualTo(10_000);
    }

    @Test
    void aReportOfTheSavedStepItselfDoesNotEndTheHold() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:10:00", 600);
        d.apply(d.event(
                "10:10:01",
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck("c1", "prepare_exit", TrainerData.AckStatus.ACCEPTED, null)));
        // The trainers' rate-limited progress of the saved step arrives after the save: they still hold.
        d.checkpointStarted("10:10:02", "exit-1", 602, false)
                .checkpointCompleted("10:10:32", "exit-1", 602, 30, 30, false)
                .progress("10:10:35", 602)
                .podEvicted("10:10:45", "llm-worker-0", "n1")
                .now("10:10:45");
        assertThat(d.goodput().lostReworkMillis()).isZero();
    }
}
