package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How signals group into incidents, when incidents close, and how lost work is measured and re-measured. */
class IncidentGroupingTest {

    private final JobDriver d = new JobDriver("ml/llm");

    /**
     * Two nodes (16 GPUs), training from 10:00:00, synchronous 30 s saves at 10:10 and 10:20.
     * Productive: 10:00:00–10:10:00 = 600 s (ckpt-1 captures P = 600 s), 10:10:30–10:20:00 = 570 s
     * (ckpt-2 captures P = 1170 s), 10:20:30–10:25:00 = 270 s: P = 1440 s at 10:25:00.
     */
    private void twoCheckpointsThenRunTo1025() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.checkpointStarted("10:20:00", "ckpt-2", 2000, false)
                .checkpointCompleted("10:20:30", "ckpt-2", 2000, 30, 30, false);
        d.progress("10:24:00", 2400);
    }

    @Test
    void incidentsOfDifferentJobsStaySeparateEvenAtTheSameTime() {
        d.runningOn(2, "10:00:00");
        d.workerFailed("10:10:00", 0, "n1");
        // a second job on other nodes of the same model
        d.apply(d.event(
                "ml/other",
                "10:00:00",
                io.lifeline.domain.event.EventType.TRAINER_RENDEZVOUS,
                new io.lifeline.domain.event.TrainerData.Rendezvous(
                        "r", 1, 8, List.of(new io.lifeline.domain.event.TrainerData.Participant("m1", 0, 8)))));
        d.apply(d.event(
                "ml/other",
                "10:00:05",
                io.lifeline.domain.event.EventType.TRAINER_PROGRESS,
                new io.lifeline.domain.event.TrainerData.Progress(1, null, null)));
        d.terminated("10:10:00", "m1");
        assertThat(d.incidents()).hasSize(1);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
        List<IncidentView> others = d.jobs.incidents("ml/other").orElseThrow();
        assertThat(others).singleElement().satisfies(i -> {
            assertThat(i.cause()).isEqualTo(IncidentCause.NODE_FAILURE);
            assertThat(i.nodes()).containsExactly("m1");
        });
    }

    @Test
    void theSameJobHitOnTwoNodesFarApartInTimeGetsTwoIncidents() {
        d.runningOn(2, "10:00:00");
        d.terminated("10:10:00", "n1")
                .restarted("10:10:10", 1)
                .rendezvous("10:10:40", 2, 8, "n2", "n3")
                .progress("10:11:00", 10);
        d.terminated("14:00:00", "n2");
        List<IncidentView> all = d.incidents();
        assertThat(all).hasSize(2);
        assertThat(all.get(0).outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(all.get(0).nodes()).containsExactly("n1");
        assertThat(all.get(1).outcome()).isEqualTo(IncidentOutcome.OPEN);
        assertThat(all.get(1).nodes()).containsExactly("n2");
        assertThat(d.detail().summary().interruptions()).isEqualTo(2);
    }

    @Test
    void aSecondFailureInsideAnOpenIncidentJoinsItAndExplainsItBetter() {
        d.runningOn(2, "10:00:00");
        d.workerFailed("10:10:00", 3, "n1");
        d.terminated("10:10:02", "n1");
        d.workerFailed("10:10:03", 12, "n2");
        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.cause()).isEqualTo(IncidentCause.NODE_FAILURE);
        assertThat(i.nodes()).containsExactly("n1", "n2");
        assertThat(i.workerFailures()).isEqualTo(2);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:10:00"));
        assertThat(d.detail().interruptionsByCause()).isEqualTo(Map.of(IncidentCause.NODE_FAILURE, 1));
    }

    @Test
    void aGpuFaultExplainsTheWorkerFailureThatFollows() {
        d.runningOn(2, "10:00:00");
        d.signal("10:10:00", "n2", NodeSignal.Kind.GPU_FAILED, "XID 79 GPU has fallen off the bus");
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        d.workerFailed("10:10:05", 9, "n2");
        IncidentView i = d.lastIncident();
        assertThat(i.cause()).isEqualTo(IncidentCause.GPU_FAULT);
        assertThat(i.causeDetail()).isEqualTo("XID 79 GPU has fallen off the bus");
        assertThat(i.openedAt()).isEqualTo(JobDriver.at("10:10:00"));
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:10:05"));
    }

    @Test
    void aNoticeThatNeverInterruptsIsAvertedAfterItsDeadlineAndGrace() {
        d.runningOn(2, "10:00:00");
        d.notice("10:10:00", "n2", NoticeKind.REBALANCE, "10:20:00");
        d.progress("10:24:59", 100);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.OPEN);
        d.progress("10:30:00", 200);
        IncidentView i = d.lastIncident();
        assertThat(i.outcome()).isEqualTo(IncidentOutcome.AVERTED);
        // deadline 10:20:00 + 5 min grace
        assertThat(i.closedAt()).isEqualTo(JobDriver.at("10:25:00"));
        assertThat(i.interrupted()).isFalse();
        assertThat(d.detail().summary().interruptions()).isZero();
        assertThat(d.goodput().lostReworkMillis()).isZero();
    }

    @Test
    void aNotReadyNodeThatIsReadyAgainAvertsTheWarning() {
        d.runningOn(2, "10:00:00");
        d.signal("10:10:00", "n1", NodeSignal.Kind.NOT_READY, "kubelet stopped posting status");
        d.signal("10:10:40", "n1", NodeSignal.Kind.READY, null);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.AVERTED);
        assertThat(d.lastIncident().closedAt()).isEqualTo(JobDriver.at("10:10:40"));
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void progressFromRanksThatHaveNotNoticedTheFailureDoesNotCloseTheIncident() {
        d.runningOn(2, "10:00:00").progress("10:09:00", 1000);
        d.workerFailed("10:10:00", 0, "n1");
        d.progress("10:10:05", 1010);
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(d.lastIncident().outcome()).isEqualTo(IncidentOutcome.OPEN);
        // The step went back below the step at the stop: the run restarted from a checkpoint without telling us.
        d.progress("10:12:00", 950);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.lastIncident().closedAt()).isEqualTo(JobDriver.at("10:12:00"));
    }

    @Test
    void aRestoreFromAnOlderCheckpointThanAssumedAddsTheWorkInBetween() {
        twoCheckpointsThenRunTo1025();
        d.workerFailed("10:25:00", 0, "n1");
        // assumed ckpt-2: lost = 1440 − 1170 = 270 s
        assertThat(d.lastIncident().lostReworkMillis()).isEqualTo(270_000);
        assertThat(d.lastIncident().assumedCheckpoint()).isEqualTo("ckpt-2");
        d.restarted("10:25:10", 1).rendezvous("10:25:30", 2, 8, "n1", "n2").restored("10:26:00", "ckpt-1", 1000);
        // restored ckpt-1: lost = 1440 − 600 = 840 s, at 16 GPUs
        IncidentView i = d.lastIncident();
        assertThat(i.lostReworkMillis()).isEqualTo(840_000);
        assertThat(i.assumedCheckpoint()).isEqualTo("ckpt-1");
        assertThat(d.goodput().lostReworkMillis()).isEqualTo(840_000);
        assertThat(d.goodput().productiveMillis()).isEqualTo(600_000);
        d.progress("10:27:00", 1001).now("10:27:00");
        GoodputView g = d.goodput();
        // 10:00–10:27 = 1620 s = 600 productive + 60 checkpoint + 840 lost + 120 recovery (10:25–10:27)
        assertThat(g.wallMillis()).isEqualTo(1_620_000);
        assertThat(g.recoveryMillis()).isEqualTo(120_000);
        assertThat(g.lostGpuMillis()).isEqualTo((840_000L + 120_000L) * 16);
    }

    @Test
    void aLateVerificationOfTheNewestCheckpointGivesTheWorkBack() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false)
                .checkpointVerified("10:11:00", "ckpt-1", true);
        d.checkpointStarted("10:20:00", "ckpt-2", 2000, false)
                .checkpointCompleted("10:20:30", "ckpt-2", 2000, 30, 30, false);
        d.workerFailed("10:25:00", 0, "n1");
        // The job verifies and ckpt-2 is not verified yet: assumed ckpt-1, lost = 1440 − 600 = 840 s
        assertThat(d.lastIncident().lostReworkMillis()).isEqualTo(840_000);
        d.checkpointVerified("10:25:30", "ckpt-2", true);
        // ckpt-2 verified: lost = 1440 − 1170 = 270 s
        assertThat(d.lastIncident().lostReworkMillis()).isEqualTo(270_000);
        assertThat(d.lastIncident().assumedCheckpoint()).isEqualTo("ckpt-2");
        assertThat(d.goodput().lostReworkMillis()).isEqualTo(270_000);
    }

    @Test
    void aCorruptCheckpointIsNoRestorePoint() {
        twoCheckpointsThenRunTo1025();
        d.checkpointVerified("10:21:00", "ckpt-2", false);
        d.workerFailed("10:25:00", 0, "n1");
        // ckpt-2 is corrupt, and the job now verifies, so ckpt-1 is not good either: lost = 1440 − 0 = 1440 s
        assertThat(d.lastIncident().lostReworkMillis()).isEqualTo(1_440_000);
        d.checkpointVerified("10:25:20", "ckpt-1", true);
        assertThat(d.lastIncident().lostReworkMillis()).isEqualTo(840_000);
        assertThat(d.freshness().checkpointId()).isEqualTo("ckpt-1");
    }

    @Test
    void preemptionWaitingCountsAsDowntimeButNotAsRecovery() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:09:30", "ckpt-1", 900, false)
                .checkpointCompleted("10:10:00", "ckpt-1", 900, 30, 30, false);
        d.preempted("10:10:00");
        assertThat(d.detail().summary().gpusHeld()).isZero();
        d.admit("10:40:00")
                .rendezvous("10:41:00", 2, 8, "n5", "n6")
                .restored("10:42:00", "ckpt-1", 900)
                .progress("10:43:00", 901);
        IncidentView i = d.lastIncident();
        assertThat(i.cause()).isEqualTo(IncidentCause.PREEMPTION);
        assertThat(i.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(i.lostReworkMillis()).isZero();
        assertThat(i.waitingMillis()).isEqualTo(30 * 60_000);
        assertThat(i.recoveryDetectionMillis()).isZero();
        // re-admitted 10:40, rendezvous 10:41, first progress 10:43
        assertThat(i.recoveryRestartMillis()).isEqualTo(60_000);
        assertThat(i.recoveryLoadMillis()).isEqualTo(120_000);
        assertThat(i.downtimeMillis()).isEqualTo(33 * 60_000);
        // only the 3 recovery minutes at 16 GPUs are lost GPU time: 180 s × 16 / 3600 = 0.8 GPU-h
        assertThat(i.lostGpuHours()).isEqualTo(0.8);
        assertThat(d.jobs.jobsOn("n1")).isEmpty();
        assertThat(d.jobs.jobsOn("n5")).containsExactly("ml/llm");
    }

    @Test
    void aRescaleThatRestoresFromAnOlderCheckpointIsAnIncident() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.rendezvous("10:20:00", 2, 8, "n1", "n2", "n3");
        assertThat(d.state()).isEqualTo(JobState.RESCALING);
        d.restored("10:20:40", "ckpt-1", 1000);
        IncidentView i = d.lastIncident();
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(i.cause()).isEqualTo(IncidentCause.RESCALE);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:20:00"));
        // productive since ckpt-1's capture: 10:10:30–10:20:00 = 570 s
        assertThat(i.lostReworkMillis()).isEqualTo(570_000);
        d.progress("10:21:00", 1001).now("10:21:00");
        GoodputView g = d.goodput();
        assertThat(g.rescaleMillis()).isZero();
        assertThat(g.recoveryRestartMillis()).isEqualTo(40_000);
        assertThat(g.recoveryLoadMillis()).isEqualTo(20_000);
        assertThat(d.lastIncident().downtimeMillis()).isEqualTo(60_000);
    }

    @Test
    void aRescaleFromAFreshCheckpointLosesNothingAndStaysARescale() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:19:30", "ckpt-1", 1900, false)
                .checkpointCompleted("10:20:00", "ckpt-1", 1900, 30, 30, false);
        d.rendezvous("10:20:00", 2, 8, "n1", "n2", "n3")
                .restored("10:20:40", "ckpt-1", 1900)
                .progress("10:21:00", 1901);
        d.now("10:21:00");
        assertThat(d.incidents()).isEmpty();
        assertThat(d.goodput().rescaleMillis()).isEqualTo(60_000);
        assertThat(d.goodput().lostReworkMillis()).isZero();
        assertThat(d.detail().summary().gpusHeld()).isEqualTo(24);
    }

    @Test
    void aReRendezvousWithoutAnyReportedFailureIsAnIncidentOfUnknownCause() {
        d.runningOn(2, "10:00:00");
        d.rendezvous("10:10:00", 2, 8, "n1", "n2");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.UNKNOWN);
    }

    @Test
    void aWarnedNodeLeavingTheGroupStopsTrainingUnderTheNoticeCause() {
        d.runningOn(3, "10:00:00");
        d.notice("10:10:00", "n3", NoticeKind.SPOT_RECLAIM, "10:12:00");
        d.rendezvous("10:10:30", 2, 8, "n1", "n2");
        IncidentView i = d.lastIncident();
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(i.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:10:30"));
        assertThat(i.worldSizeBefore()).isEqualTo(24);
    }

    @Test
    void aRedeliveredNodeSignalIsAppliedOnce() {
        d.runningOn(2, "10:00:00");
        d.terminated("10:10:00", "n1").terminated("10:10:00", "n1");
        assertThat(d.lastIncident().phases()).hasSize(1);
    }
}
