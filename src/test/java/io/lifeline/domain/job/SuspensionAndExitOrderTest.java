package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentCause;
import org.junit.jupiter.api.Test;

/**
 * A job suspended by its scheduler (a preemption through {@code runPolicy.suspend}) sees its workers exit as the
 * kubelet stops them; the watch's suspension and the workers' exits reach Lifeline in either order. Either way the job
 * ends suspended under one planned incident, so no failure advice is decided for the exits and a stop-and-page checks
 * as reached.
 */
class SuspensionAndExitOrderTest {

    private static JobDriver trainedAfterARestart(String name) {
        return new JobDriver(name)
                .runningOn(2, "00:00:00")
                .progress("00:01:00", 20)
                .workerFailed("00:01:10", 1, "n2")
                .restarted("00:01:11", 1)
                .rendezvous("00:01:15", 2, 8, "n1", "n2")
                .progress("00:01:20", 21)
                .progress("00:01:30", 25)
                .checkpointCompleted("00:01:34", "c25", 25, 0.1, 0.1, false);
    }

    @Test
    void theSuspensionFirstThenTheExits() {
        JobDriver d = trainedAfterARestart("ml/a")
                .requeued("00:01:35")
                .workerFailed("00:01:36", 0, "n1")
                .workerFailed("00:01:36", 1, "n2");
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.MANUAL);
        assertThat(d.lastIncident().cause().planned()).isTrue();
    }

    @Test
    void theExitsFirstThenTheSuspension() {
        JobDriver d = trainedAfterARestart("ml/b")
                .workerFailed("00:01:36", 0, "n1")
                .requeued("00:01:35")
                .workerFailed("00:01:36", 1, "n2");
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.MANUAL);
        assertThat(d.incidents()).hasSize(2);
    }
}
