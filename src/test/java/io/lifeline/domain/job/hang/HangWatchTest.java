package io.lifeline.domain.job.hang;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData.StepTimes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a job's heartbeats become a verdict: thresholds earned per phase, silence that is not a hang, suspects. */
class HangWatchTest {

    /** Floor 30 s, 4 slow steps, save floor 120 s, declared phases 30 min, silent after 35 s. */
    private final HangSettings settings = HangSettings.defaults();

    private final HangWatch watch = new HangWatch();

    private static StepTimes beat(
            int rank, long steps, long toStep, double max, double since, String phase, double inPhase) {
        return new StepTimes(
                rank,
                rank,
                "node-" + rank,
                steps,
                toStep,
                max / 2,
                steps > 0 ? max : null,
                null,
                since,
                phase,
                inPhase);
    }

    /** Two ranks stepping every 2 s (slowest 2.5 s) for a while: the job earns 4 × 2.5 = 10 s, raised to 30 s. */
    private void training(long atMs) {
        for (int i = 0; i < 5; i++) {
            watch.report(atMs - (5 - i) * 10_000L, beat(0, 5, 100 + i * 5, 2.5, 0.5, "training", 300));
            watch.report(atMs - (5 - i) * 10_000L, beat(1, 5, 100 + i * 5, 2.5, 0.5, "training", 300));
        }
    }

    @Test
    void aJobWhoseRanksAllStopPastTheFloorIsSuspectedWithTheBasisOfItsThreshold() {
        training(1_000_000);
        watch.report(1_040_000, beat(0, 0, 120, 0, 31, "training", 331));
        watch.report(1_040_000, beat(1, 0, 120, 0, 31, "training", 331));

        HangVerdict v = watch.judge(1_041_000, settings, r -> null);

        assertThat(v.state()).isEqualTo(HangVerdict.SUSPECTED);
        assertThat(v.kind()).isEqualTo("training");
        assertThat(v.stalledSeconds()).isEqualTo(32.0);
        assertThat(v.thresholdSeconds()).isEqualTo(30.0);
        assertThat(v.basis()).isEqualTo("4 x p99 step time 2.5 s = 10 s, raised to the floor 30 s");
        assertThat(v.since().toEpochMilli()).isEqualTo(1_041_000 - 32_000);
        // Both at step 120 in the same phase: nothing tells them apart but their stacks.
        assertThat(v.suspects()).isEmpty();
        assertThat(v.evidence()).singleElement().asString().contains("every reporting rank stopped at step 120");
    }

    @Test
    void justUnderTheThresholdIsNotAHang() {
        training(1_000_000);
        watch.report(1_040_000, beat(0, 0, 120, 0, 29, "training", 329));
        watch.report(1_040_000, beat(1, 0, 120, 0, 29, "training", 329));

        assertThat(watch.judge(1_040_500, settings, r -> null).state()).isEqualTo(HangVerdict.OK);
    }

    @Test
    void slowStepsEarnALongerThreshold() {
        for (int i = 0; i < 10; i++) {
            watch.report(i * 1000L, beat(0, 5, i, 20, 1, "training", 100));
        }
        assertThat(watch.trainingThreshold(settings).seconds()).isEqualTo(80.0);
        watch.report(100_000, beat(0, 0, 10, 0, 70, "training", 170));
        assertThat(watch.judge(100_000, settings, r -> null).state()).isEqualTo(HangVerdict.OK);
        assertThat(watch.judge(111_000, settings, r -> null).state()).isEqualTo(HangVerdict.SUSPECTED);
    }

    @Test
    void oneRankEvaluatingInsideItsPhaseKeepsTheWaitingOthersFromBeingSuspected() {
        training(1_000_000);
        watch.report(1_100_000, beat(0, 0, 120, 0, 100, "evaluation", 100));
        watch.report(1_100_000, beat(1, 0, 120, 0, 100, "training", 100));

        HangVerdict v = watch.judge(1_100_000, settings, r -> null);

        assertThat(v.state()).isEqualTo(HangVerdict.OK);
    }

    @Test
    void aDeclaredPhasePastItsOwnThresholdIsAPhaseHangNamingTheRankInIt() {
        HangWatch w = new HangWatch();
        HangSettings s = new HangSettings(
                Duration.ofSeconds(30),
                Duration.ofHours(1),
                4,
                Duration.ofMinutes(10),
                4,
                Duration.ofMinutes(2),
                Duration.ofMinutes(30),
                Map.of("evaluation", Duration.ofMinutes(5)),
                Duration.ofSeconds(35));
        w.report(0, beat(0, 3, 10, 1, 0.1, "training", 10));
        w.report(400_000, beat(0, 0, 10, 0, 301, "evaluation", 301));
        w.report(400_000, beat(1, 0, 10, 0, 301, "training", 301));

        HangVerdict v = w.judge(400_000, s, r -> null);

        assertThat(v.state()).isEqualTo(HangVerdict.SUSPECTED);
        assertThat(v.kind()).isEqualTo("phase");
        assertThat(v.suspects()).extracting(x -> x.rank()).containsExactly(0);
        assertThat(v.suspects().get(0).why()).contains("in phase evaluation");
    }

    @Test
    void aSaveIsJudgedAgainstTheJobsOwnSavesAndItsFloor() {
        training(1_000_000);
        watch.saved(50);
        // 4 × 50 s = 200 s: a save of 150 s is slow, not hung.
        watch.report(1_150_000, beat(0, 0, 120, 0, 150, "saving", 150));
        watch.report(1_150_000, beat(1, 0, 120, 0, 150, "training", 150));
        assertThat(watch.judge(1_150_000, settings, r -> null).state()).isEqualTo(HangVerdict.OK);

        watch.report(1_210_000, beat(0, 0, 120, 0, 210, "saving", 210));
        watch.report(1_210_000, beat(1, 0, 120, 0, 210, "training", 210));
        HangVerdict v = watch.judge(1_210_000, settings, r -> null);

        assertThat(v.state()).isEqualTo(HangVerdict.SUSPECTED);
        assertThat(v.kind()).isEqualTo("save");
        assertThat(v.basis()).isEqualTo("4 x slowest recent save 50 s");
        assertThat(v.suspects()).extracting(x -> x.rank()).containsExactly(0);
    }

    @Test
    void aJobsFirstSaveGetsTheStartUpThresholdNotTheSaveFloor() {
        training(1_000_000);
        // Six minutes into its first save: a large model's save, not a hang (10 minutes before any save is measured).
        watch.report(1_400_000, beat(0, 0, 120, 0, 360, "saving", 360));
        watch.report(1_400_000, beat(1, 0, 120, 0, 360, "training", 360));
        assertThat(watch.judge(1_400_000, settings, r -> null).state()).isEqualTo(HangVerdict.OK);

        watch.report(1_650_000, beat(0, 0, 120, 0, 610, "saving", 610));
        watch.report(1_650_000, beat(1, 0, 120, 0, 610, "training", 610));
        HangVerdict v = watch.judge(1_650_000, settings, r -> null);
        assertThat(v.state()).isEqualTo(HangVerdict.SUSPECTED);
        assertThat(v.basis()).isEqualTo("no save measured yet: the start-up threshold 600 s");
    }

    @Test
    void noHeartbeatForLongerThanTheLivenessIsUnknownNotHung() {
        training(1_000_000);
        watch.report(1_040_000, beat(0, 0, 120, 0, 31, "training", 331));
        watch.report(1_040_000, beat(1, 0, 120, 0, 31, "training", 331));

        // Lifeline was down (or the agents cut off) for five minutes: nothing is known about those minutes.
        HangVerdict v = watch.judge(1_340_000, settings, r -> null);

        assertThat(v.state()).isEqualTo(HangVerdict.UNKNOWN);
        assertThat(v.detail()).contains("which is not a hang");
    }

    @Test
    void aRankThatWentSilentWhileTheOthersStillReportStuckIsTheFirstSuspect() {
        training(1_000_000);
        watch.report(1_000_000, beat(1, 0, 120, 0, 1, "training", 301));
        watch.report(1_060_000, beat(0, 0, 120, 0, 59, "training", 359));

        HangVerdict v = watch.judge(1_061_000, settings, r -> r == 1 ? "gpu-node-7" : null);

        assertThat(v.state()).isEqualTo(HangVerdict.SUSPECTED);
        assertThat(v.silentRanks()).containsExactly(1);
        assertThat(v.suspects()).extracting(x -> x.rank()).containsExactly(1);
        assertThat(v.suspects().get(0).why()).contains("stopped reporting");
    }

    @Test
    void aRankThatStoppedAtAnEarlierStepIsNamedWithItsNodeAndGpu() {
        training(1_000_000);
        watch.report(1_060_000, beat(0, 0, 121, 0, 40, "training", 340));
        watch.report(1_060_000, beat(1, 0, 120, 0, 42, "training", 342));

        HangVerdict v = watch.judge(1_060_000, settings, r -> null);

        assertThat(v.suspects()).singleElement().satisfies(s -> {
            assertThat(s.rank()).isEqualTo(1);
            assertThat(s.node()).isEqualTo("node-1");
            assertThat(s.gpu()).isEqualTo("1");
            assertThat(s.lastStep()).isEqualTo(120);
            assertThat(s.why()).isEqualTo("stopped at step 120 while others reached 121");
        });
    }

    @Test
    void ranksHeldOnPurposeAreNeverHung() {
        training(1_000_000);
        watch.report(1_600_000, beat(0, 0, 120, 0, 600, "holding", 600));
        watch.report(1_600_000, beat(1, 0, 120, 0, 600, "holding", 600));

        assertThat(watch.judge(1_600_000, settings, r -> null).state()).isEqualTo(HangVerdict.OK);
    }

    @Test
    void afterAPhaseTheTrainingClockStartsWhenThePhaseEnded() {
        training(1_000_000);
        // 20 minutes since the last step, but back in training for only 5 s (an evaluation just ended).
        watch.report(2_200_000, beat(0, 0, 120, 0, 1200, "training", 5));

        assertThat(watch.judge(2_200_000, settings, r -> null).state()).isEqualTo(HangVerdict.OK);
    }

    @Test
    void reportsOfAnAgentWithoutHeartbeatsSayNothingAboutAStall() {
        watch.report(0, new StepTimes(0, 0, "n", 3, 10, 1, 2.0, null));

        assertThat(watch.judge(1_000_000, settings, r -> null).state()).isEqualTo(HangVerdict.UNKNOWN);
        assertThat(watch.slowStepSeconds()).isEqualTo(2.0);
    }

    @Test
    void aLateReportDoesNotHideANewerOne() {
        training(1_000_000);
        watch.report(1_040_000, beat(0, 0, 120, 0, 31, "training", 331));
        watch.report(1_040_000, beat(1, 0, 120, 0, 31, "training", 331));
        watch.report(1_000_000, beat(1, 1, 120, 2, 0.1, "training", 300));

        assertThat(watch.judge(1_041_000, settings, r -> null).state()).isEqualTo(HangVerdict.SUSPECTED);
    }
}
