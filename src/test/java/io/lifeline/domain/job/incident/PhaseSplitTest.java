package io.lifeline.domain.job.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Incidents built by hand with known buckets and phase stamps, and their split by recovery phase worked out in the
 * comments. Buckets are what the job model accrues while an incident is stopped; stamps cut the two buckets that hold
 * two phases (hang: detection | decision; restart: rescheduling | rendezvous).
 */
class PhaseSplitTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private static long ms(long seconds) {
        return Duration.ofSeconds(seconds).toMillis();
    }

    private static Incident stopped(IncidentCause cause, long stopSecond, int gpus, long lostSeconds) {
        Incident i = new Incident("ns/j#1", "ns/j", at(stopSecond), cause, null, "n1");
        i.stop(at(stopSecond), "n1", new ProductiveMark(ms(3600), ms(3600) * gpus), 100, gpus, gpus, false, 0);
        i.lost(new ProductiveMark(ms(lostSeconds), ms(lostSeconds) * gpus), "ckpt-1");
        i.phase(IncidentPhase.STOPPED, at(stopSecond), "n1", null);
        return i;
    }

    @Test
    void aHangIsDetectedUntilItsSuspicionAndDecidedUntilItsRestart() {
        // 8 GPUs. Last progress at 0 s; suspected hung at 300 s (the 300 s moved to HANG), restarted at 420 s (120 s
        // more of HANG), group formed at 450 s (30 s of restart), first progress at 540 s (90 s of load); 600 s lost.
        Incident i = stopped(IncidentCause.HANG, 300, 8, 600);
        i.accrueMoved(Bucket.HANG, new ProductiveMark(ms(300), ms(300) * 8));
        i.phase(IncidentPhase.HUNG, at(300), "n1", "collective hang");
        i.accrue(Bucket.HANG, ms(120), 8);
        i.phase(IncidentPhase.CAPTURED, at(330), "n1", "stacks r1");
        i.phase(IncidentPhase.RESTARTED, at(420), null, "restart 1");
        i.accrue(Bucket.RECOVERY_RESTART, ms(30), 8);
        i.phase(IncidentPhase.REJOINED, at(450), null, "world size 8");
        i.accrue(Bucket.RECOVERY_LOAD, ms(90), 8);
        i.phase(IncidentPhase.RESUMED, at(540), null, "step 90");
        i.close(at(540), IncidentOutcome.RECOVERED, 8);

        PhaseSplit s = i.phaseSplit();
        // HANG 420 s: 300 s before the suspicion (detection), 120 s from it to the restart (decision).
        assertThat(s.millis(RecoveryPhase.DETECTION)).isEqualTo(ms(300));
        assertThat(s.millis(RecoveryPhase.DECISION)).isEqualTo(ms(120));
        // No re-admission: the whole restart bucket is rendezvous.
        assertThat(s.millis(RecoveryPhase.RESCHEDULING)).isZero();
        assertThat(s.millis(RecoveryPhase.RENDEZVOUS)).isEqualTo(ms(30));
        assertThat(s.millis(RecoveryPhase.RESTORE)).isEqualTo(ms(90));
        assertThat(s.millis(RecoveryPhase.LOST_REWORK)).isEqualTo(ms(600));
        // 300 + 120 + 30 + 90 + 600 = 1,140 s; each phase held the 8 GPUs.
        assertThat(s.totalMillis()).isEqualTo(ms(1140));
        for (RecoveryPhase p : RecoveryPhase.values()) {
            assertThat(s.gpuMillis(p)).as("%s", p).isEqualTo(s.millis(p) * 8);
        }
    }

    @Test
    void aPreemptionWaitsOffItsNodesThenIsPlacedThenRejoins() {
        // 16 GPUs. Preempted at 0 s and off the nodes for 1,800 s (waiting holds no GPU); admitted again at 1,800 s,
        // the agent restarted at 1,860 s and the group formed at 1,900 s (100 s of restart bucket), first progress
        // at 1,950 s (50 s of load); the exit save kept everything (0 lost).
        Incident i = stopped(IncidentCause.PREEMPTION, 0, 16, 0);
        i.phase(IncidentPhase.WAITING, at(0), null, "preempted");
        i.accrue(Bucket.WAITING, ms(1800), 0);
        i.phase(IncidentPhase.ADMITTED, at(1800), null, "admitted again");
        i.accrue(Bucket.RECOVERY_RESTART, ms(100), 16);
        i.phase(IncidentPhase.RESTARTED, at(1860), null, "restart 1");
        i.phase(IncidentPhase.REJOINED, at(1900), null, "world size 16");
        i.accrue(Bucket.RECOVERY_LOAD, ms(50), 16);
        i.close(at(1950), IncidentOutcome.RECOVERED, 16);

        PhaseSplit s = i.phaseSplit();
        assertThat(s.millis(RecoveryPhase.DETECTION)).isZero();
        assertThat(s.millis(RecoveryPhase.DECISION)).isZero();
        // 1,800 s waiting + 60 s from admission to the restart.
        assertThat(s.millis(RecoveryPhase.RESCHEDULING)).isEqualTo(ms(1860));
        // The other 40 s of the restart bucket.
        assertThat(s.millis(RecoveryPhase.RENDEZVOUS)).isEqualTo(ms(40));
        assertThat(s.millis(RecoveryPhase.RESTORE)).isEqualTo(ms(50));
        assertThat(s.millis(RecoveryPhase.LOST_REWORK)).isZero();
        // GPU time: waiting held none, so rescheduling holds 60 s × 16; rendezvous 40 s × 16.
        assertThat(s.gpuMillis(RecoveryPhase.RESCHEDULING)).isEqualTo(ms(60) * 16);
        assertThat(s.gpuMillis(RecoveryPhase.RENDEZVOUS)).isEqualTo(ms(40) * 16);
    }

    @Test
    void aNodeFailureWithoutAdmissionIsDetectionRendezvousAndRestore() {
        // 8 GPUs. The node went at 0 s; the agent restarted the workers at 45 s (45 s detection bucket), the group
        // formed at 65 s (20 s restart), first progress at 125 s (60 s load); 240 s lost.
        Incident i = stopped(IncidentCause.NODE_FAILURE, 0, 8, 240);
        i.accrue(Bucket.RECOVERY_DETECTION, ms(45), 8);
        i.phase(IncidentPhase.RESTARTED, at(45), null, "restart 1");
        i.accrue(Bucket.RECOVERY_RESTART, ms(20), 8);
        i.phase(IncidentPhase.REJOINED, at(65), null, "world size 8");
        i.accrue(Bucket.RECOVERY_LOAD, ms(60), 8);
        i.close(at(125), IncidentOutcome.RECOVERED, 8);

        PhaseSplit s = i.phaseSplit();
        // Nothing marks a decision apart from the restart: detection and decision are one, counted as detection.
        assertThat(s.millis(RecoveryPhase.DETECTION)).isEqualTo(ms(45));
        assertThat(s.millis(RecoveryPhase.DECISION)).isZero();
        assertThat(s.millis(RecoveryPhase.RESCHEDULING)).isZero();
        assertThat(s.millis(RecoveryPhase.RENDEZVOUS)).isEqualTo(ms(20));
        assertThat(s.millis(RecoveryPhase.RESTORE)).isEqualTo(ms(60));
        assertThat(s.millis(RecoveryPhase.LOST_REWORK)).isEqualTo(ms(240));
    }

    @Test
    void anAdmissionWithoutARestartReportedFoldsTheRendezvousIntoRescheduling() {
        // Admitted at 600 s after 600 s waiting; 90 s of restart bucket and no agent restart reported, the group
        // formed at 690 s: the 90 s are rescheduling (placement and rendezvous cannot be told apart).
        Incident i = stopped(IncidentCause.PREEMPTION, 0, 8, 0);
        i.accrue(Bucket.WAITING, ms(600), 0);
        i.phase(IncidentPhase.ADMITTED, at(600), null, "admitted again");
        i.accrue(Bucket.RECOVERY_RESTART, ms(90), 8);
        i.phase(IncidentPhase.REJOINED, at(690), null, "world size 8");
        i.close(at(700), IncidentOutcome.RECOVERED, 8);

        PhaseSplit s = i.phaseSplit();
        assertThat(s.millis(RecoveryPhase.RESCHEDULING)).isEqualTo(ms(690));
        assertThat(s.millis(RecoveryPhase.RENDEZVOUS)).isZero();
    }

    @Test
    void aCutTheStampsPlaceBeyondItsBucketIsHeldWithinIt() {
        // The stamps put the restart 200 s after the suspicion, but the accounting clock gave the hang bucket 150 s
        // (a late event): decision takes the whole 150 s, detection none, and nothing goes negative.
        Incident i = stopped(IncidentCause.HANG, 0, 4, 0);
        i.phase(IncidentPhase.HUNG, at(0), "n1", "hang");
        i.accrue(Bucket.HANG, ms(150), 4);
        i.phase(IncidentPhase.RESTARTED, at(200), null, "restart 1");
        i.close(at(260), IncidentOutcome.RECOVERED, 4);

        PhaseSplit s = i.phaseSplit();
        assertThat(s.millis(RecoveryPhase.DECISION)).isEqualTo(ms(150));
        assertThat(s.millis(RecoveryPhase.DETECTION)).isZero();
        assertThat(s.gpuMillis(RecoveryPhase.DECISION)).isEqualTo(ms(150) * 4);
    }

    @Test
    void aSplitHasOneNonNegativeValuePerPhase() {
        assertThatThrownBy(() -> PhaseSplit.of(new long[2], new long[2])).isInstanceOf(IllegalArgumentException.class);
        long[] negative = new long[RecoveryPhase.values().length];
        negative[0] = -1;
        assertThatThrownBy(() -> PhaseSplit.of(negative, new long[negative.length]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
