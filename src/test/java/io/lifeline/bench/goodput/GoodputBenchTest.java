package io.lifeline.bench.goodput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.bench.goodput.InterruptionHistory.Cause;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@code bench/goodput}: a few simulated days of the same history through both arms. Lifeline's
 * arm must train more than the arm without it, and Lifeline's ledger must tell both arms' ground truth within half a
 * percentage point, bucket by bucket.
 */
class GoodputBenchTest {

    @Test
    void withLifelineTheSameHistoryLeavesMoreUsefulTrainingAndTheLedgerTellsTheTruth() {
        // Twice the published rates over 10 days: about twenty interruptions, reclaims and failures both.
        GoodputBench.Pair p =
                GoodputBench.pair(GoodputSetup.of(1024).withDays(10).withRateScale(2));

        assertThat(p.interruptions()).isGreaterThanOrEqualTo(10);
        assertThat(p.with().ettr()).isGreaterThan(p.without().ettr());
        for (ArmResult r : new ArmResult[] {p.without(), p.with()}) {
            assertThat(r.ledgerErrorPp()).as(r.arm()).isLessThanOrEqualTo(0.5);
            double rework = 0;
            double down = 0;
            for (double[] l : r.lost().values()) {
                rework += l[0];
                down += l[1];
            }
            assertThat(r.ledger().checkpointMillis() / 1000.0)
                    .as(r.arm())
                    .isCloseTo(r.checkpointSeconds(), within(60.0));
            assertThat(r.ledger().lostReworkMillis() / 1000.0).as(r.arm()).isCloseTo(rework, within(60.0));
            assertThat(r.ledger().recoveryMillis() / 1000.0).as(r.arm()).isCloseTo(down, within(60.0));
        }
        // Every reclaim and maintenance came with a notice Lifeline answered with a save: none threw work away.
        assertThat(p.with().actions()).containsKey("notice-checkpoint-drain drain");
        assertThat(p.with().lost().get(Cause.SPOT_RECLAIM)[0]).isZero();
        assertThat(p.with().lost().get(Cause.PLANNED)[0]).isZero();
        assertThat(p.without().lost().get(Cause.SPOT_RECLAIM)[0]).isPositive();
        assertThat(p.with().refusals()).isEmpty();
        // Lifeline cannot beat the bound by much: it too pays the saves and restarts the bound counts.
        assertThat(p.with().ettr()).isLessThan(p.bound() + 0.01);
    }

    @Test
    void aJobOf16kGpusHasItsRendezvousTakenByIngestAndItsLedgerRight() {
        GoodputBench.Pair p = GoodputBench.pair(GoodputSetup.of(16_384).withDays(0.5));

        assertThat(p.interruptions()).isPositive();
        assertThat(p.with().ledgerErrorPp()).isLessThanOrEqualTo(0.5);
        assertThat(p.without().ledgerErrorPp()).isLessThanOrEqualTo(0.5);
        assertThat(p.with().ettr()).isGreaterThan(p.without().ettr());
    }
}
