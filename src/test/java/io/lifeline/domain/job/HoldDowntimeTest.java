package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import org.junit.jupiter.api.Test;

/**
 * The downtime of a stop that came while the trainers held still after an exit save: training stopped where the hold
 * began, not when Lifeline heard of the stop. The event sequences are those of the real spot drills (two torchrun
 * nodes, a notice for one, its save and hold, the node gone):
 *
 * <pre>
 *  10:01:00 notice for n2, deadline 10:01:45        (the script: last step 610 at 10:01:02)
 *  10:01:02 prepare_exit save of step 610 starts
 *  10:01:03 it completes; every rank holds           (the script: holding from 10:01:03)
 *  10:01:36 n2 killed: its agent and workers say nothing; the survivor's hold ends in a lost peer, which its agent
 *           does not report (torchrun restarts it), and torchrun records the restart only with the next round
 *  10:01:46 the survivor's new round, alone          the first signal of the stop Lifeline gets
 *  10:01:52 restored step 610
 *  10:01:53 first progress, step 611                 (the script: first step after the restore at 10:01:53)
 * </pre>
 *
 * By the script, training stopped at 10:01:03 and moved at 10:01:53: 50 s of downtime, nothing lost. Measured from
 * the round that signalled the stop, the incident said 7 s; from the node's termination, when it is reported, 17 s.
 */
class HoldDowntimeTest {

    private static JobDriver heldUntilKilled() {
        JobDriver d = new JobDriver("ml/spot-drill").runningOn(2, "10:00:00").progress("10:01:00", 600);
        d.notice("10:01:00", "n2", NoticeKind.SPOT_RECLAIM, "10:01:45");
        d.apply(d.event(
                "10:01:01",
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck(
                        "act-1:n2", "prepare_exit", TrainerData.AckStatus.ACCEPTED, "saving, then holding")));
        return d.checkpointStarted("10:01:02", "exit-610", 610, false)
                .checkpointCompleted("10:01:03", "exit-610", 610, 1, 1, false)
                // The rate-limited progress of the saved step, sent while holding.
                .progress("10:01:04", 610);
    }

    private static void survivorResumes(JobDriver d) {
        d.rendezvous("10:01:46", 2, 8, "n1")
                .restarted("10:01:46", 1)
                .restored("10:01:52", "exit-610", 610)
                .progress("10:01:53", 611)
                .now("10:02:00");
    }

    @Test
    void aNodeKilledUnseenAtItsDeadlineCountsTheHoldAndTheUnseenTimeAsDowntime() {
        JobDriver d = heldUntilKilled();
        survivorResumes(d);

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        // The stop keeps the time of its signal; the downtime runs from the hold to the first progress.
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:01:46"));
        assertThat(i.closedAt()).isEqualTo(JobDriver.at("10:01:53"));
        assertThat(i.downtimeMillis()).as("was 7 s, from the round").isEqualTo(50_000);
        assertThat(i.recoveryMillis()).isEqualTo(7_000);
        assertThat(i.lostReworkMillis()).isZero();
        assertThat(i.checkpointBeforeExit()).isTrue();

        // The job's buckets: the hold a pause (rescale), the rest recovery, nothing lost; they hold the incident.
        GoodputView g = d.goodput();
        assertThat(g.rescaleMillis()).isEqualTo(43_000);
        assertThat(g.recoveryMillis()).isEqualTo(7_000);
        assertThat(g.lostReworkMillis()).isZero();
        assertThat(g.rescaleMillis() + g.recoveryMillis()).isEqualTo(i.downtimeMillis());
    }

    @Test
    void aNodeTerminationReportedAtTheKillCountsTheHoldToo() {
        JobDriver d = heldUntilKilled();
        d.terminated("10:01:36", "n2");
        survivorResumes(d);

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:01:36"));
        assertThat(i.downtimeMillis()).as("was 17 s, from the termination").isEqualTo(50_000);
        assertThat(i.recoveryMillis()).isEqualTo(17_000);
        assertThat(i.lostReworkMillis()).isZero();
        assertThat(d.goodput().rescaleMillis()).isEqualTo(33_000);
    }

    @Test
    void aLeavingNodesOwnWorkerFailureAfterItsSigtermCountsTheHold() {
        // The notice's node stopped by SIGTERM 2 s into the hold: its worker's failure is the stop.
        JobDriver d = heldUntilKilled();
        d.workerFailed("10:01:05", 1, "n2");
        survivorResumes(d);

        IncidentView i = d.lastIncident();
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:01:05"));
        assertThat(i.downtimeMillis()).isEqualTo(50_000);
        assertThat(i.recoveryMillis()).isEqualTo(48_000);
    }

    @Test
    void aHoldThatEndedInTrainingAddsNothingToALaterStop() {
        // Nobody came by the deadline and grace: the ranks trained on, then a failure stopped them.
        JobDriver d = heldUntilKilled();
        d.progress("10:02:20", 620).workerFailed("10:02:30", 0, "n1");
        d.restarted("10:02:35", 1)
                .rendezvous("10:02:40", 2, 8, "n1", "n2")
                .restored("10:02:45", "exit-610", 610)
                .progress("10:02:50", 611)
                .now("10:03:00");

        IncidentView i = d.lastIncident();
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:02:30"));
        assertThat(i.downtimeMillis()).isEqualTo(20_000);
        assertThat(i.recoveryMillis()).isEqualTo(20_000);
    }

    @Test
    void aStopWithoutAHoldIsMeasuredFromItsSignal() {
        JobDriver d = new JobDriver("ml/kill-drill").runningOn(2, "10:00:00").progress("10:01:00", 600);
        d.workerFailed("10:01:10", 0, "n1")
                .restarted("10:01:15", 1)
                .rendezvous("10:01:20", 2, 8, "n1")
                .progress("10:01:30", 1)
                .now("10:02:00");
        assertThat(d.lastIncident().downtimeMillis()).isEqualTo(20_000);
    }
}
