package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputLedger;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.ProductiveMark;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ledger's arithmetic: accrual, reclassification caps, late ticks, start extension, views. */
class GoodputLedgerTest {

    @Test
    void timeAccruesToTheCurrentActivityWeightedByGpus() {
        GoodputLedger l = new GoodputLedger(0, Bucket.WAITING);
        l.advanceTo(1_000);
        l.switchTo(Bucket.PRODUCTIVE, 8);
        l.advanceTo(3_000);
        GoodputView v = l.view(3_000);
        assertThat(v.waitingMillis()).isEqualTo(1_000);
        assertThat(v.productiveMillis()).isEqualTo(2_000);
        assertThat(v.productiveGpuMillis()).isEqualTo(16_000);
        assertThat(v.wallMillis()).isEqualTo(3_000);
    }

    @Test
    void aLateTickAccruesNothingAndNeverMovesTheClockBack() {
        GoodputLedger l = new GoodputLedger(0, Bucket.PRODUCTIVE);
        l.advanceTo(5_000);
        assertThat(l.advanceTo(4_000)).isZero();
        assertThat(l.clockMs()).isEqualTo(5_000);
    }

    @Test
    void theViewAddsTheTimeUpToNowToTheActivityButNotBeforeTheClock() {
        GoodputLedger l = new GoodputLedger(0, Bucket.PRODUCTIVE);
        l.advanceTo(5_000);
        assertThat(l.view(7_000).productiveMillis()).isEqualTo(7_000);
        assertThat(l.view(1_000).wallMillis()).isEqualTo(5_000);
    }

    @Test
    void reclassificationIsCappedByTheSourceBucket() {
        GoodputLedger l = new GoodputLedger(0, Bucket.PRODUCTIVE);
        l.switchTo(Bucket.PRODUCTIVE, 4);
        l.advanceTo(10_000);
        ProductiveMark moved = l.move(Bucket.PRODUCTIVE, Bucket.LOST_REWORK, 25_000, 100_000);
        assertThat(moved).isEqualTo(new ProductiveMark(10_000, 40_000));
        GoodputView v = l.view(10_000);
        assertThat(v.productiveMillis()).isZero();
        assertThat(v.lostReworkMillis()).isEqualTo(10_000);
        assertThat(v.lostGpuMillis()).isEqualTo(40_000);
        assertThat(l.move(Bucket.PRODUCTIVE, Bucket.CHECKPOINT, -5, -5)).isEqualTo(ProductiveMark.ZERO);
    }

    @Test
    void aStoppedLedgerKeepsItsWallTime() {
        GoodputLedger l = new GoodputLedger(0, Bucket.PRODUCTIVE);
        l.advanceTo(5_000);
        l.stop();
        l.switchTo(Bucket.PRODUCTIVE, 8);
        l.advanceTo(9_000);
        assertThat(l.view(20_000).wallMillis()).isEqualTo(5_000);
        assertThat(l.stopped()).isTrue();
    }

    @Test
    void anEarlierStartIsWaiting() {
        GoodputLedger l = new GoodputLedger(10_000, Bucket.PRODUCTIVE);
        l.advanceTo(12_000);
        l.extendStartTo(4_000);
        l.extendStartTo(8_000);
        GoodputView v = l.view(12_000);
        assertThat(v.waitingMillis()).isEqualTo(6_000);
        assertThat(v.wallMillis()).isEqualTo(8_000);
        assertThat(l.startMs()).isEqualTo(4_000);
    }

    @Test
    void lostReworkIsNeverAnActivity() {
        GoodputLedger l = new GoodputLedger(0, Bucket.PRODUCTIVE);
        assertThatThrownBy(() -> l.switchTo(Bucket.LOST_REWORK, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ettrIsUndefinedWithoutTimeAndRollupsRecomputeIt() {
        assertThat(GoodputView.EMPTY.ettr()).isNull();
        assertThat(GoodputView.EMPTY.ettrOfWall()).isNull();
        GoodputLedger a = new GoodputLedger(0, Bucket.PRODUCTIVE);
        a.advanceTo(3_000);
        GoodputLedger b = new GoodputLedger(0, Bucket.WAITING);
        b.advanceTo(1_000);
        b.switchTo(Bucket.RECOVERY_LOAD, 2);
        b.advanceTo(2_000);
        GoodputView sum = GoodputView.sum(List.of(a.view(3_000), b.view(2_000)));
        assertThat(sum.wallMillis()).isEqualTo(5_000);
        // productive 3000 / (5000 − 1000 waiting)
        assertThat(sum.ettr()).isEqualTo(0.75);
        assertThat(sum.ettrOfWall()).isEqualTo(0.6);
        assertThat(sum.lostGpuMillis()).isEqualTo(2_000);
    }
}
