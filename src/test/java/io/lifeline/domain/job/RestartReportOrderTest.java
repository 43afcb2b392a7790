package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The order in which a real torchrun restart reaches Lifeline (seen with the trainer agent on torch 2.13): the
 * agent's new rendezvous and restart count first, then the restarted worker's first progress at step 0, sent before
 * it has restored anything, and only then its trainer.restored. That is one incident, closed once training resumes
 * from the checkpoint, not a second one "restored without a reported failure".
 */
class RestartReportOrderTest {

    private static JobDriver failedThenRestarted() {
        return new JobDriver("team/llm")
                .runningOn(2, "10:00:00")
                .progress("10:05:00", 300)
                .checkpointStarted("10:05:00", "ck-300", 300, false)
                .checkpointCompleted("10:05:01", "ck-300", 300, 1, 1, false)
                .progress("10:06:00", 360)
                .workerFailed("10:06:01", 8, "n2")
                .terminated("10:06:02", "n2")
                .rendezvous("10:06:40", 2, 8, "n1")
                .restarted("10:06:40", 1);
    }

    @Test
    void aWorkersStepZeroBeforeItRestoresDoesNotCloseTheIncident() {
        JobDriver d = failedThenRestarted().progress("10:06:42", 0);
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        d.restored("10:06:43", "ck-300", 300).progress("10:06:45", 302).now("10:06:45");
        List<IncidentView> incidents = d.incidents();
        assertThat(incidents).singleElement().satisfies(i -> {
            assertThat(i.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
            assertThat(i.restoredCheckpoint()).isEqualTo("ck-300");
            assertThat(i.restoredStep()).isEqualTo(300);
        });
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aRunThatStartsAfreshResumesAtItsFirstStep() {
        JobDriver d = failedThenRestarted()
                .progress("10:06:42", 0)
                .progress("10:06:44", 1)
                .now("10:06:44");
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(d.incidents()).hasSize(1);
    }

    @Test
    void anEmergencySaveOnSigtermIsTheCheckpointBeforeExitOfAnUnannouncedStop() {
        JobDriver d = new JobDriver("team/llm").runningOn(2, "10:00:00").progress("10:05:00", 300);
        d.apply(d.event(
                "10:05:01",
                io.lifeline.domain.event.EventType.TRAINER_CHECKPOINT_STARTED,
                new io.lifeline.domain.event.TrainerData.CheckpointStarted(
                        "sig-301", 301, false, io.lifeline.domain.event.TrainerData.SaveReason.SIGNAL)));
        d.checkpointCompleted("10:05:02", "sig-301", 301, 1, 1, false)
                .workerFailed("10:05:03", 8, "n2")
                .now("10:05:03");
        assertThat(d.lastIncident().checkpointBeforeExit()).isTrue();

        JobDriver periodic = new JobDriver("team/llm")
                .runningOn(2, "10:00:00")
                .progress("10:05:00", 300)
                .checkpointStarted("10:05:01", "p-301", 301, false)
                .checkpointCompleted("10:05:02", "p-301", 301, 1, 1, false)
                .workerFailed("10:05:03", 8, "n2")
                .now("10:05:03");
        assertThat(periodic.lastIncident().checkpointBeforeExit())
                .as("a periodic save is no exit save")
                .isFalse();
    }
}
