package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.RecoveryPhase;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recovery time by phase through the real jobs model: incidents made by events, their phases worked out by hand from
 * the events' times, agreeing with the incident's own buckets, read over a window of the model's clock and scope.
 */
class RecoveryPhasesModelTest {

    private static double seconds(RecoveryPhaseRow r, RecoveryPhase p) {
        return r.stats(p).totalSeconds();
    }

    /** The phases of a row of one incident add up to its hang, recovery, waiting and lost rework. */
    private static void addsUp(RecoveryPhaseRow r, IncidentView v) {
        double sum = 0;
        for (RecoveryPhase p : RecoveryPhase.values()) {
            sum += seconds(r, p);
        }
        assertThat(sum * 1000)
                .isEqualTo((double) (v.hangMillis() + v.recoveryMillis() + v.waitingMillis() + v.lostReworkMillis()));
    }

    @Test
    void aHangIsDetectedUntilItsSuspicionThenDecidedUntilItsRestart() {
        JobDriver d = new JobDriver("ml/llm");
        // 1 node × 8 GPUs from 10:00, a save at 10:10, last progress at 10:14; suspected hung at 10:15 (since 10:14),
        // restarted at 10:16, restored at 10:16:30, first progress at 10:17.
        d.runningOn(1, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.progress("10:14:00", 1500);
        d.apply(d.event(
                "10:15:00",
                EventType.JOB_HANG_SUSPECTED,
                new JobData.HangSuspected(
                        "training",
                        JobDriver.at("10:14:00"),
                        60,
                        30,
                        "threshold 30 s",
                        "training",
                        List.of(new JobData.HangSuspect(1, "n1", "1", 1500L, "stopped at step 1500")),
                        List.of())));
        d.restarted("10:16:00", 1).restored("10:16:30", "ckpt-1", 1000).progress("10:17:00", 1001);
        d.clock.set(JobDriver.at("10:20:00"));

        RecoveryPhaseReport r = d.jobs.recoveryPhases(7, PhaseGroupBy.CAUSE, j -> true);
        assertThat(r.rows()).hasSize(1);
        RecoveryPhaseRow hang = r.rows().get(0);
        assertThat(hang.cause()).isEqualTo(IncidentCause.HANG);
        assertThat(hang.incidents()).isEqualTo(1);
        // Hung 10:14-10:16 (120 s): unsuspected 10:14-10:15, then 10:15-10:16 until the restart.
        assertThat(seconds(hang, RecoveryPhase.DETECTION)).isEqualTo(60);
        assertThat(seconds(hang, RecoveryPhase.DECISION)).isEqualTo(60);
        // Restart 10:16 to the restore 10:16:30 (no new group reported: the restart bucket is rendezvous), then load.
        assertThat(seconds(hang, RecoveryPhase.RESCHEDULING)).isZero();
        assertThat(seconds(hang, RecoveryPhase.RENDEZVOUS)).isEqualTo(30);
        assertThat(seconds(hang, RecoveryPhase.RESTORE)).isEqualTo(30);
        // Productive 10:10:30-10:14 since ckpt-1: 210 s lost.
        assertThat(seconds(hang, RecoveryPhase.LOST_REWORK)).isEqualTo(210);
        // 8 GPUs throughout: the decision held 60 s × 8 = 480 GPU-s.
        assertThat(hang.stats(RecoveryPhase.DECISION).gpuHours()).isEqualTo(480 / 3600.0);
        addsUp(hang, d.lastIncident());

        // Another namespace's scope, and a window the model's clock has moved past, count nothing.
        assertThat(d.jobs.recoveryPhases(7, PhaseGroupBy.CAUSE, j -> j.startsWith("other/"))
                        .all()
                        .incidents())
                .isZero();
        d.clock.set(JobDriver.at("10:20:00").plusSeconds(8 * 86_400));
        assertThat(d.jobs.recoveryPhases(7, PhaseGroupBy.CAUSE, j -> true).all().incidents())
                .isZero();
        assertThat(d.jobs.recoveryPhases(30, PhaseGroupBy.POOL, j -> true).all().incidents())
                .isEqualTo(1);
    }

    @Test
    void aPreemptionWaitsIsAdmittedAgainRestartsAndRejoins() {
        JobDriver d = new JobDriver("ml/llm");
        // Preempted at 10:12, off the nodes until admitted again at 10:22; the agent restarts at 10:23, the group
        // forms at 10:23:20, ckpt-1 is restored at 10:23:40 and training moves at 10:24.
        d.runningOn(1, "10:00:00");
        d.checkpointStarted("10:05:00", "ckpt-1", 300, false)
                .checkpointCompleted("10:05:10", "ckpt-1", 300, 10, 10, false);
        d.progress("10:11:00", 600);
        d.preempted("10:12:00");
        d.admit("10:22:00").restarted("10:23:00", 1).rendezvous("10:23:20", 2, 8, "n1");
        d.restored("10:23:40", "ckpt-1", 300).progress("10:24:00", 301);
        d.clock.set(JobDriver.at("10:30:00"));

        RecoveryPhaseRow p =
                d.jobs.recoveryPhases(7, PhaseGroupBy.CAUSE, j -> true).all();
        IncidentView v = d.lastIncident();
        assertThat(v.cause()).isEqualTo(IncidentCause.PREEMPTION);
        assertThat(p.incidents()).isEqualTo(1);
        assertThat(seconds(p, RecoveryPhase.DETECTION)).isZero();
        // 600 s waiting (10:12-10:22) and 60 s from the admission to the agent's restart.
        assertThat(seconds(p, RecoveryPhase.RESCHEDULING)).isEqualTo(660);
        // 10:23-10:23:20 until the group formed; then 40 s until the first progress.
        assertThat(seconds(p, RecoveryPhase.RENDEZVOUS)).isEqualTo(20);
        assertThat(seconds(p, RecoveryPhase.RESTORE)).isEqualTo(40);
        // Waiting holds no GPU: rescheduling held only its 60 s × 8 GPUs.
        assertThat(p.stats(RecoveryPhase.RESCHEDULING).gpuHours()).isEqualTo(480 / 3600.0);
        assertThat(seconds(p, RecoveryPhase.LOST_REWORK) * 1000).isEqualTo((double) v.lostReworkMillis());
        addsUp(p, v);
    }
}
