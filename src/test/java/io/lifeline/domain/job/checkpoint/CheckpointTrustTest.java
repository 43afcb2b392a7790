package io.lifeline.domain.job.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.CheckpointCompleted;
import io.lifeline.domain.event.TrainerData.CheckpointStarted;
import io.lifeline.domain.event.TrainerData.CheckpointVerified;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The trust rules with numbers worked by hand, and what a checkpoint's verdict rests on in the ledger. */
class CheckpointTrustTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private static LossWindow window(double... losses) {
        LossWindow w = new LossWindow();
        for (double l : losses) {
            w.add(l);
        }
        return w;
    }

    @Test
    void aNonFiniteLossIsSuspectWhateverTheWindow() {
        assertThat(new LossWindow().judge(Double.NaN, 10).reason()).isEqualTo(SuspectReason.NON_FINITE_LOSS);
        assertThat(new LossWindow().judge(Double.POSITIVE_INFINITY, 10).reason())
                .isEqualTo(SuspectReason.NON_FINITE_LOSS);
        assertThat(new LossWindow().judge(Double.NEGATIVE_INFINITY, 10).reason())
                .isEqualTo(SuspectReason.NON_FINITE_LOSS);
        assertThat(new LossWindow().judge(null, 10)).isNull();
    }

    @Test
    void aSpikeIsAboveFactorTimesTheMedian() {
        // Sorted 1 2 2 3 5: median 2; factor 10: above 20 is a spike, 20 itself is not.
        LossWindow w = window(1, 3, 2, 2, 5);
        assertThat(w.median()).isEqualTo(2.0);
        assertThat(w.judge(20.0, 10)).isNull();
        assertThat(w.judge(20.5, 10).reason()).isEqualTo(SuspectReason.LOSS_SPIKE);
        assertThat(w.judge(20.5, 10).detail())
                .contains("20.5")
                .contains("median 2.0")
                .contains("last 5 losses");
        // An even window: 1 2 3 4 5 6: median 3.5; factor 2: above 7.
        LossWindow even = window(6, 5, 4, 3, 2, 1);
        assertThat(even.median()).isEqualTo(3.5);
        assertThat(even.judge(7.0, 2)).isNull();
        assertThat(even.judge(7.1, 2).reason()).isEqualTo(SuspectReason.LOSS_SPIKE);
    }

    @Test
    void tooFewLossesOrANonPositiveMedianJudgeNoSpike() {
        assertThat(window(1, 1, 1, 1).judge(1000.0, 10)).isNull();
        assertThat(window(-5, -4, -3, -2, -1).judge(1000.0, 10)).isNull();
        assertThat(window(0, 0, 0, 0, 0).judge(1000.0, 10)).isNull();
    }

    @Test
    void theWindowKeepsTheNewestFiftyFiniteLosses() {
        LossWindow w = new LossWindow();
        for (int i = 0; i < 100; i++) {
            w.add(100.0);
        }
        for (int i = 0; i < 50; i++) {
            w.add(1.0);
        }
        w.add(Double.NaN);
        w.add(null);
        assertThat(w.size()).isEqualTo(50);
        assertThat(w.median()).isEqualTo(1.0);
        assertThat(w.judge(10.5, 10).reason()).isEqualTo(SuspectReason.LOSS_SPIKE);
    }

    private static CheckpointLedger ledgerWith(String id, Double loss, LossWindow.Verdict v) {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        l.started(new CheckpointStarted(id, 100, false, null, loss), T0, ProductiveMark.ZERO, v);
        l.completed(new CheckpointCompleted(id, 100, 10L, 1.0, 1.0, null, null, 1, false, 1), T0, placed());
        return l;
    }

    private static CheckpointStorage.Placement placed() {
        return CheckpointStorage.defaults().classify("s3://b/k", null, java.util.List.of(), java.util.List.of("n1"));
    }

    private static CheckpointTrust trustOf(CheckpointLedger l, String id) {
        return l.history("ml/x").checkpoints().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow()
                .trust();
    }

    @Test
    void aCheckpointStartedAfterANanIsSuspectAndAnOperatorsMarkWins() {
        CheckpointLedger l = ledgerWith("c", Double.NaN, new LossWindow().judge(Double.NaN, 10));
        CheckpointTrust t = trustOf(l, "c");
        assertThat(t.trusted()).isFalse();
        assertThat(t.reason()).isEqualTo("non_finite_loss");
        assertThat(t.loss()).isEqualTo("nan");
        l.markTrust("c", true, "the NaN was in the logging only", "alice", T0.plusSeconds(5));
        CheckpointTrust marked = trustOf(l, "c");
        assertThat(marked.trusted()).isTrue();
        assertThat(marked.detail()).isEqualTo("the NaN was in the logging only");
        assertThat(marked.markedBy()).isEqualTo("alice");
        // The mark survives the ledger's save and restore.
        CheckpointLedger back = CheckpointLedger.restore(l.save(), 10, 10);
        assertThat(trustOf(back, "c")).isEqualTo(marked);
    }

    @Test
    void aCheckpointWithoutALossIsTrustedUntilTheJobVerifiesAndThisOneIsNot() {
        CheckpointLedger l = ledgerWith("c1", null, null);
        assertThat(trustOf(l, "c1").trusted()).isTrue();
        assertThat(trustOf(l, "c1").loss()).isNull();
        l.started(new CheckpointStarted("c2", 200, false), T0, ProductiveMark.ZERO);
        l.completed(new CheckpointCompleted("c2", 200, 10L, 1.0, 1.0, null, null, 1, false, 1), T0, placed());
        l.verified(new CheckpointVerified("c2", true, "sum"), T0.plusSeconds(1));
        // The job verifies now: c1, never verified, is suspect; c2 is trusted.
        assertThat(trustOf(l, "c1").reason()).isEqualTo("unverified");
        assertThat(trustOf(l, "c2").trusted()).isTrue();
        l.verified(new CheckpointVerified("c2", false, "other"), T0.plusSeconds(2));
        assertThat(trustOf(l, "c2").reason()).isEqualTo("corrupt");
    }

    @Test
    void aFailedOrRunningSaveHasNoVerdictAndANoSpaceFailureSaysSo() {
        CheckpointLedger l = new CheckpointLedger(10, 10);
        l.started(new CheckpointStarted("s", 1, false), T0, ProductiveMark.ZERO);
        assertThat(trustOf(l, "s")).isNull();
        l.failed(
                new TrainerData.CheckpointFailed(
                        "f", 2, "NoSpaceError: not enough space", TrainerData.FailReason.NO_SPACE, 1000L, 1250L),
                T0);
        CheckpointView f = l.history("ml/x").checkpoints().stream()
                .filter(c -> c.id().equals("f"))
                .findFirst()
                .orElseThrow();
        assertThat(f.trust()).isNull();
        assertThat(f.error()).isEqualTo("no_space (1000 bytes free, 1250 needed): NoSpaceError: not enough space");
    }

    @Test
    void theLossIsJudgedOnceAtTheFirstStartSeen() {
        CheckpointLedger l = ledgerWith("c", 1.0, null);
        l.started(
                new CheckpointStarted("c", 100, false, null, Double.NaN),
                T0,
                ProductiveMark.ZERO,
                new LossWindow().judge(Double.NaN, 10));
        assertThat(trustOf(l, "c").trusted()).isTrue();
        assertThat(trustOf(l, "c").loss()).isEqualTo("1.0");
    }
}
