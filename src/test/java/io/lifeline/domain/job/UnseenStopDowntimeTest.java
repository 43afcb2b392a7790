package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import org.junit.jupiter.api.Test;

/**
 * A stop nothing reported: a node's agent and workers killed, a whole job killed and launched again. Lifeline learns of
 * it from the new round, seconds later; training stopped at its last sign. The sequence is the real crash drill's pod
 * recreation (two torchrun nodes, one killed and started again):
 *
 * <pre>
 *  10:00:10 checkpoint of step 40 completes
 *  10:00:20 progress, step 100                        (the script: its last step, 100, at 10:00:20)
 *  10:00:20 n2 killed; its new agent starts
 *  10:00:38 the new round, n1 and n2                  the first signal of the stop
 *  10:00:39 restored step 40
 *  10:00:40 first progress, step 41                   (the script: first step again at 10:00:40)
 * </pre>
 *
 * By the script: 20 s of downtime, and the 10 s of steps 41 to 100 lost. Measured from the round, the incident said
 * 2 s of downtime and 28 s lost (the unseen 18 s counted as training, then thrown away).
 */
class UnseenStopDowntimeTest {

    private static JobDriver killedUnseen() {
        return new JobDriver("ml/crash-drill")
                .runningOn(2, "10:00:00")
                .checkpointStarted("10:00:10", "ckpt-40", 40, false)
                .checkpointCompleted("10:00:10", "ckpt-40", 40, 0, 0, false)
                .progress("10:00:20", 100);
    }

    @Test
    void aNewRoundWithoutAFailureCountsTheTimeSinceTheLastProgressAsDowntimeNotAsLostWork() {
        JobDriver d = killedUnseen();
        d.rendezvous("10:00:38", 2, 8, "n1", "n2")
                .restored("10:00:39", "ckpt-40", 40)
                .progress("10:00:40", 41)
                .now("10:01:00");

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:00:38"));
        assertThat(i.downtimeMillis()).as("was 2 s, from the round").isEqualTo(20_000);
        assertThat(i.lostReworkMillis()).as("was 28 s").isEqualTo(10_000);

        GoodputView g = d.goodput();
        assertThat(g.recoveryMillis()).isEqualTo(20_000);
        assertThat(g.lostReworkMillis()).isEqualTo(10_000);
    }

    @Test
    void aRestartWithoutAFailureDoesTheSame() {
        JobDriver d = killedUnseen();
        d.restarted("10:00:38", 1)
                .rendezvous("10:00:38", 2, 8, "n1", "n2")
                .restored("10:00:39", "ckpt-40", 40)
                .progress("10:00:40", 41)
                .now("10:01:00");

        IncidentView i = d.lastIncident();
        assertThat(i.downtimeMillis()).isEqualTo(20_000);
        assertThat(i.lostReworkMillis()).isEqualTo(10_000);
    }

    @Test
    void aReportedFailureKeepsItsOwnTime() {
        JobDriver d = killedUnseen();
        d.workerFailed("10:00:21", 0, "n1")
                .rendezvous("10:00:38", 2, 8, "n1", "n2")
                .restored("10:00:39", "ckpt-40", 40)
                .progress("10:00:40", 41)
                .now("10:01:00");

        IncidentView i = d.lastIncident();
        assertThat(i.downtimeMillis()).isEqualTo(19_000);
        assertThat(i.lostReworkMillis()).isEqualTo(11_000);
    }

    /**
     * The crash drill's pod recreation followed by a relaunch of every agent before the recreated workers' reports
     * were sent (killed, they never are): Lifeline never saw the job train between the two, so they are one incident,
     * from the last progress it saw to the first after the relaunch. A drill that wants two incidents waits until
     * Lifeline closed the first.
     */
    @Test
    void aSecondStopBeforeAnyProgressOfTheRecoveryJoinsTheOpenIncident() {
        JobDriver d = killedUnseen();
        d.rendezvous("10:00:38", 2, 8, "n1", "n2")
                // the recreated workers restore and train, and are killed with their reports unsent
                .rendezvous("10:00:50", 0, 8, "n1", "n2")
                .restored("10:00:52", "ckpt-40", 40)
                .progress("10:00:53", 41)
                .now("10:01:00");

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.closedAt()).isEqualTo(JobDriver.at("10:00:53"));
        assertThat(i.downtimeMillis()).isEqualTo(33_000);
        assertThat(i.lostReworkMillis()).isEqualTo(10_000);
    }
}
