package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.incident.PhaseStamp;
import org.junit.jupiter.api.Test;

/**
 * A 64-GPU job (8 nodes × 8 GPUs) checkpointing every 30 minutes with 40 s blocking saves gets a spot
 * notice for node n8 at minute 47 with 120 s lead, then shrinks to 7 nodes (56 GPUs) and restores.
 * Every figure below was worked out by hand; the arithmetic is in the comments.
 *
 * <p>Common timeline (minute m = 10:mm):
 * <pre>
 *  09:58:00 submitted                 → waiting   09:58:00–09:59:00 =   60 s
 *  09:59:00 admitted                  → startup   09:59:00–10:00:00 =   60 s
 *  09:59:30 rendezvous 8 nodes, 64 ranks
 *  10:00:00 first progress            → RUNNING (productive)
 *  10:29:20 ckpt-1 started (sync)     → productive 10:00:00–10:29:20 = 1760 s; captured P = 1760 s
 *  10:30:00 ckpt-1 completed, 40 s    → checkpoint 40 s
 *  10:47:00 spot notice n8, deadline 10:49:00 (lead 120 s): incident opened, training goes on
 *           productive 10:30:00–10:47:00 = 1020 s (17 min); P = 2780 s
 *  10:47:00 ckpt-2 started (sync, checkpoint-now)
 * </pre>
 * The clock reads 11:00:00 for every figure (wall = 09:58:00–11:00:00 = 3720 s).
 */
class SpotNoticeScenarioTest {

    private static final String[] EIGHT = {"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"};
    private static final String[] SEVEN = {"n1", "n2", "n3", "n4", "n5", "n6", "n7"};

    private final JobDriver d = new JobDriver("ml/llm-64");

    private void commonStart() {
        d.nodes.addRange("n", 8, "p4d-spot", CapacityType.SPOT, 8);
        d.submit("09:58:00", 4, 8, 8, 1800L).admit("09:59:00").rendezvous("09:59:30", 1, 8, EIGHT);
        for (int m = 0; m <= 25; m += 5) {
            d.progress(String.format("10:%02d:00", m), m * 100L);
        }
        d.checkpointStarted("10:29:20", "ckpt-1", 2933, false)
                .checkpointCompleted("10:30:00", "ckpt-1", 2933, 40, 40, false);
        for (int m = 35; m <= 45; m += 5) {
            d.progress(String.format("10:%02d:00", m), m * 100L);
        }
        d.notice("10:47:00", "n8", NoticeKind.SPOT_RECLAIM, "10:49:00");
        d.checkpointStarted("10:47:00", "ckpt-2", 4700, false);
    }

    /**
     * The checkpoint completes inside the notice, the drain evicts n8's pod, nothing is lost.
     * <pre>
     *  10:47:40 ckpt-2 completed (40 s)     checkpoint total 40 + 40 = 80 s; captured P = 2780 s
     *  10:47:40 pod on n8 evicted (drain)   STOP: lost = P − P(ckpt-2) = 2780 − 2780 = 0; n8 lost → 56 GPUs
     *  10:47:45 rank 0 on n1 fails          joins
     *  10:47:50 agent restart               detection 10:47:40–10:47:50 = 10 s
     *  10:49:00 n8 terminated               joins (n8 still in the old round)
     *  10:49:20 rendezvous 7 nodes, 56      restart   10:47:50–10:49:20 = 90 s
     *  10:49:40 restored ckpt-2
     *  10:50:00 first progress              load      10:49:20–10:50:00 = 40 s; incident closed
     *  recovery = 10 + 90 + 40 = 140 s = downtime; productive = 1760 + 1020 + (10:50–11:00 = 600) = 3380 s
     *  sum: 3380 + 80 + 0 + 140 + 60 + 60 = 3720 = wall
     *  ETTR = 3380 / (3720 − 60) = 3380 / 3660 = 0.923497...; of wall = 3380 / 3720 = 0.908602...
     *  lost GPU-hours = (0 × 64 + 140 s × 56 GPUs) / 3600 = 7840 / 3600 = 2.177777...
     * </pre>
     */
    @Test
    void checkpointInsideTheNoticeLosesNoWork() {
        commonStart();
        d.checkpointCompleted("10:47:40", "ckpt-2", 4700, 40, 40, false);
        d.podEvicted("10:47:40", "llm-64-worker-7", "n8");
        d.workerFailed("10:47:45", 0, "n1").restarted("10:47:50", 1);
        d.terminated("10:49:00", "n8");
        d.rendezvous("10:49:20", 2, 8, SEVEN).restored("10:49:40", "ckpt-2", 4700);
        d.progress("10:50:00", 4710).progress("10:55:00", 5200);
        d.now("11:00:00");

        GoodputView g = d.goodput();
        assertThat(g.wallMillis()).isEqualTo(3_720_000);
        assertThat(g.waitingMillis()).isEqualTo(60_000);
        assertThat(g.startupMillis()).isEqualTo(60_000);
        assertThat(g.checkpointMillis()).isEqualTo(80_000);
        assertThat(g.productiveMillis()).isEqualTo(3_380_000);
        assertThat(g.lostReworkMillis()).isZero();
        assertThat(g.recoveryDetectionMillis()).isEqualTo(10_000);
        assertThat(g.recoveryRestartMillis()).isEqualTo(90_000);
        assertThat(g.recoveryLoadMillis()).isEqualTo(40_000);
        assertThat(g.recoveryMillis()).isEqualTo(140_000);
        assertThat(g.rescaleMillis()).isZero();
        assertThat(g.ettr()).isCloseTo(3380.0 / 3660.0, within(1e-12));
        assertThat(g.ettr()).isCloseTo(0.923497, within(1e-6));
        assertThat(g.ettrOfWall()).isCloseTo(3380.0 / 3720.0, within(1e-12));
        assertThat(g.lostGpuHours()).isCloseTo(7840.0 / 3600.0, within(1e-12));

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(i.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(i.openedAt()).isEqualTo(JobDriver.at("10:47:00"));
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:47:40"));
        assertThat(i.closedAt()).isEqualTo(JobDriver.at("10:50:00"));
        assertThat(i.nodes()).containsExactly("n1", "n8");
        assertThat(i.announcedLeadMillis()).isEqualTo(120_000);
        assertThat(i.actualLeadMillis()).isEqualTo(40_000);
        assertThat(i.checkpointBeforeExit()).isTrue();
        assertThat(i.assumedCheckpoint()).isEqualTo("ckpt-2");
        assertThat(i.restoredCheckpoint()).isEqualTo("ckpt-2");
        assertThat(i.lostReworkMillis()).isZero();
        assertThat(i.downtimeMillis()).isEqualTo(140_000);
        assertThat(i.recoveryMillis()).isEqualTo(140_000);
        assertThat(i.lostGpuHours()).isCloseTo(7840.0 / 3600.0, within(1e-12));
        assertThat(i.gpusAtStop()).isEqualTo(64);
        assertThat(i.worldSizeBefore()).isEqualTo(64);
        assertThat(i.worldSizeAfter()).isEqualTo(56);
        assertThat(i.workerFailures()).isEqualTo(1);
        assertThat(i.pool()).isEqualTo("p4d-spot");
        assertThat(i.phases())
                .extracting(PhaseStamp::phase)
                .containsExactly(
                        IncidentPhase.WARNED,
                        IncidentPhase.STOPPED,
                        IncidentPhase.STOPPED,
                        IncidentPhase.RESTARTED,
                        IncidentPhase.STOPPED,
                        IncidentPhase.REJOINED,
                        IncidentPhase.RESTORED,
                        IncidentPhase.RESUMED);

        // Freshness at 11:00:00: ckpt-2 completed at 10:47:40 → 740 s old; 56 GPUs × 740 s = 41440 GPU-s = 11.5111
        // GPU-h.
        // Steps since: 5200 − 4700 = 500. Objective: 2 × 1800 s = 3600 s, not breached.
        FreshnessView f = d.freshness();
        assertThat(f.checkpointId()).isEqualTo("ckpt-2");
        assertThat(f.ageMillis()).isEqualTo(740_000);
        assertThat(f.stepsSince()).isEqualTo(500);
        assertThat(f.gpusHeld()).isEqualTo(56);
        assertThat(f.workAtRiskGpuHours()).isCloseTo(41440.0 / 3600.0, within(1e-12));
        assertThat(f.objectiveMillis()).isEqualTo(3_600_000);
        assertThat(f.breached()).isFalse();
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    /**
     * The save started at the notice does not finish before the node goes: 17 minutes of work are lost.
     * <pre>
     *  10:47:00–10:49:00 blocked in the ckpt-2 save    checkpoint total 40 + 120 = 160 s
     *  10:49:00 n8 terminated               STOP: newest good is ckpt-1 (P = 1760 s); P = 2780 s
     *                                       lost = 2780 − 1760 = 1020 s = 17 min, at 64 GPUs = 65280 GPU-s
     *                                       n8 lost → 56 GPUs
     *  10:49:02 rank 3 on n2 fails          joins
     *  10:49:05 ckpt-2 failed
     *  10:49:10 agent restart               detection 10:49:00–10:49:10 = 10 s
     *  10:50:00 rendezvous 7 nodes, 56      restart   10:49:10–10:50:00 = 50 s
     *  10:50:40 restored ckpt-1 (as assumed: lost stays 1020 s)
     *  10:51:00 first progress              load      10:50:00–10:51:00 = 60 s; incident closed
     *  recovery = 120 s = downtime, at 56 GPUs = 6720 GPU-s
     *  productive = 1760 + 1020 + (10:51–11:00 = 540) − 1020 lost = 2300 s
     *  sum: 2300 + 160 + 1020 + 120 + 60 + 60 = 3720 = wall
     *  ETTR = 2300 / 3660 = 0.628415...; of wall = 2300 / 3720 = 0.618279...
     *  lost GPU-hours = (65280 + 6720) / 3600 = 72000 / 3600 = 20.0 (of which 17 min × 64 GPUs = 18.1333)
     * </pre>
     */
    @Test
    void noCheckpointBeforeTerminationLosesSeventeenMinutesOnSixtyFourGpus() {
        commonStart();
        d.terminated("10:49:00", "n8");
        d.workerFailed("10:49:02", 3, "n2").checkpointFailed("10:49:05", "ckpt-2", 4700, "writer on n8 lost");
        d.restarted("10:49:10", 1).rendezvous("10:50:00", 2, 8, SEVEN).restored("10:50:40", "ckpt-1", 2933);
        d.progress("10:51:00", 2940).progress("10:55:00", 3300);
        d.now("11:00:00");

        GoodputView g = d.goodput();
        assertThat(g.wallMillis()).isEqualTo(3_720_000);
        assertThat(g.waitingMillis()).isEqualTo(60_000);
        assertThat(g.startupMillis()).isEqualTo(60_000);
        assertThat(g.checkpointMillis()).isEqualTo(160_000);
        assertThat(g.lostReworkMillis()).isEqualTo(1_020_000);
        assertThat(g.productiveMillis()).isEqualTo(2_300_000);
        assertThat(g.recoveryDetectionMillis()).isEqualTo(10_000);
        assertThat(g.recoveryRestartMillis()).isEqualTo(50_000);
        assertThat(g.recoveryLoadMillis()).isEqualTo(60_000);
        assertThat(g.ettr()).isCloseTo(2300.0 / 3660.0, within(1e-12));
        assertThat(g.ettrOfWall()).isCloseTo(2300.0 / 3720.0, within(1e-12));
        assertThat(g.lostGpuHours()).isCloseTo(20.0, within(1e-12));

        IncidentView i = d.lastIncident();
        assertThat(d.incidents()).hasSize(1);
        assertThat(i.cause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(i.stoppedAt()).isEqualTo(JobDriver.at("10:49:00"));
        assertThat(i.closedAt()).isEqualTo(JobDriver.at("10:51:00"));
        assertThat(i.actualLeadMillis()).isEqualTo(120_000);
        assertThat(i.checkpointBeforeExit()).isFalse();
        assertThat(i.assumedCheckpoint()).isEqualTo("ckpt-1");
        assertThat(i.restoredCheckpoint()).isEqualTo("ckpt-1");
        assertThat(i.lostReworkMillis()).isEqualTo(17 * 60_000);
        assertThat(i.downtimeMillis()).isEqualTo(120_000);
        assertThat(i.lostGpuHours()).isCloseTo(72000.0 / 3600.0, within(1e-12));
        assertThat(i.worldSizeAfter()).isEqualTo(56);
        assertThat(i.nodes()).containsExactly("n2", "n8");

        // ckpt-1 completed 10:30:00 → 1800 s old at 11:00; 56 GPUs × 1800 s = 28 GPU-h at risk; steps 3300 − 2933 =
        // 367.
        FreshnessView f = d.freshness();
        assertThat(f.checkpointId()).isEqualTo("ckpt-1");
        assertThat(f.ageMillis()).isEqualTo(1_800_000);
        assertThat(f.workAtRiskGpuHours()).isCloseTo(28.0, within(1e-12));
        assertThat(f.stepsSince()).isEqualTo(367);
    }
}
