package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.LemonNode;
import io.lifeline.domain.fleet.reliability.PoolRate;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import io.lifeline.testing.HandCountedFleet;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * MTBF per pool on the seeded fleet of {@link HandCountedFleet} (its Javadoc holds the hand count), against that
 * count. T0 is 2025-11-03 09:00 UTC; "now" is ten days later.
 */
class ReliabilityHandCountTest {

    private static final long DAY = 86_400;
    private final MovableClock clock = new MovableClock(at(10 * DAY));
    private final Fleet fleet = new Fleet(FleetSettings.defaults(clock));

    private void seed() {
        HandCountedFleet.events(FleetEvents.T0, "").forEach(fleet::apply);
    }

    private Map<String, ReliabilityRow> rows(ReliabilityReport r) {
        return r.rows().stream().collect(Collectors.toMap(ReliabilityRow::group, x -> x));
    }

    @Test
    void mtbfPerPoolEqualsTheHandCount() {
        seed();
        Map<String, ReliabilityRow> pools = rows(fleet.reliability(30, GroupBy.POOL, null, null));
        ReliabilityRow spot = pools.get("a100-spot");
        assertThat(spot.nodeHours()).isCloseTo(1_728_120 / 3600.0, within(1e-9));
        assertThat(spot.interruptions()).isEqualTo(4);
        assertThat(spot.mtbfHours()).isCloseTo(1_728_120 / 3600.0 / 4, within(1e-9));
        assertThat(spot.byCause())
                .containsEntry("spot-reclaim", 1L)
                .containsEntry("not-ready", 1L)
                .containsEntry("gpu-failure", 1L)
                .containsEntry("termination", 1L);
        ReliabilityRow od = pools.get("h100-od");
        assertThat(od.nodeHours()).isCloseTo(480, within(1e-9));
        assertThat(od.interruptions()).isEqualTo(5);
        assertThat(od.mtbfHours()).isCloseTo(96, within(1e-9));
        assertThat(od.byCause()).containsEntry("not-ready", 5L);
        // Exact 95 % limits for 5 events (1.6235, 11.668) over 480 node-hours.
        assertThat(od.rateLower()).isCloseTo(1.6235 / 480, within(1e-6));
        assertThat(od.rateUpper()).isCloseTo(11.668 / 480, within(1e-6));
        assertThat(od.mtbfLowerHours()).isCloseTo(480 / 11.668, within(0.01));
        assertThat(od.mtbfUpperHours()).isCloseTo(480 / 1.6235, within(0.1));
    }

    @Test
    void groupsByCapacityTypeZoneAndInstanceType() {
        seed();
        assertThat(rows(fleet.reliability(30, GroupBy.CAPACITY_TYPE, null, null))
                        .keySet())
                .containsExactlyInAnyOrder("spot", "on-demand");
        assertThat(rows(fleet.reliability(30, GroupBy.ZONE, null, null))
                        .get("us-east-1b")
                        .mtbfHours())
                .isCloseTo(96, within(1e-9));
        assertThat(rows(fleet.reliability(30, GroupBy.INSTANCE_TYPE, null, null))
                        .get("p4d.24xlarge")
                        .interruptions())
                .isEqualTo(4);
    }

    @Test
    void aCauseFilterCountsOnlyThatCause() {
        seed();
        ReliabilityRow spot = rows(fleet.reliability(30, GroupBy.POOL, InterruptionCause.GPU_FAILURE, null))
                .get("a100-spot");
        assertThat(spot.interruptions()).isEqualTo(1);
        assertThat(spot.mtbfHours()).isCloseTo(1_728_120 / 3600.0, within(1e-9));
    }

    /**
     * The 7-day window starts at 2025-11-07 00:00 UTC, 313,200 s after T0: s2 serves 550,800 s of it, s3 432,000 s,
     * s4 the 32,400 s before its termination (credited across days), s1 none; only s4's termination falls inside.
     */
    @Test
    void aShorterWindowStartsAtTheStartOfItsFirstDay() {
        seed();
        ReliabilityReport r = fleet.reliability(7, GroupBy.POOL, null, null);
        assertThat(r.from()).isEqualTo(java.time.Instant.parse("2025-11-07T00:00:00Z"));
        ReliabilityRow spot = rows(r).get("a100-spot");
        assertThat(spot.nodeHours()).isCloseTo((550_800 + 432_000 + 32_400) / 3600.0, within(1e-9));
        assertThat(spot.interruptions()).isEqualTo(1);
        assertThat(spot.byCause()).containsEntry("termination", 1L);
    }

    @Test
    void noInterruptionMeansNoMtbfButAnUpperRate() {
        fleet.apply(registered("q", at(0)));
        ReliabilityRow row =
                fleet.reliability(30, GroupBy.POOL, null, null).rows().get(0);
        assertThat(row.mtbfHours()).isNull();
        assertThat(row.mtbfUpperHours()).isNull();
        assertThat(row.rateLower()).isZero();
        assertThat(row.rateUpper()).isCloseTo(3.689 / 240, within(1e-5));
    }

    @Test
    void theAdviceSeamReadsThePoolsRate() {
        seed();
        PoolRate spot = fleet.poolRate(List.of("a100-spot"), null);
        assertThat(spot.nodeSeconds()).isEqualTo(1_728_120);
        assertThat(spot.interruptions()).isEqualTo(4);
        assertThat(spot.windowDays()).isEqualTo(30);
        assertThat(fleet.poolRate(List.of("a100-spot", "h100-od"), CapacityType.ON_DEMAND)
                        .interruptions())
                .isEqualTo(5);
    }

    @Test
    void theLedgerSurvivesACheckpointAndForgottenNodes() {
        seed();
        Fleet restored = new Fleet(FleetSettings.defaults(clock));
        restored.restore(fleet.save());
        assertThat(restored.reliability(30, GroupBy.POOL, null, null))
                .isEqualTo(fleet.reliability(30, GroupBy.POOL, null, null));
        // A fleet keeping no terminated node still counts the service of the ones it forgot.
        Fleet forgetful = new Fleet(new FleetSettings(
                clock,
                io.lifeline.domain.gpu.XidPolicy.loadDefault(),
                io.lifeline.domain.gpu.GpuThresholds.defaults(),
                Duration.ofDays(7),
                64,
                0));
        forgetful.apply(registered("gone", at(0)));
        forgetful.apply(terminated("gone", at(DAY)));
        assertThat(forgetful.node("gone")).isEmpty();
        ReliabilityRow row =
                forgetful.reliability(30, GroupBy.POOL, null, null).rows().get(0);
        assertThat(row.nodeHours()).isEqualTo(24);
        assertThat(row.interruptions()).isEqualTo(1);
    }

    /**
     * Ten nodes of one pool for ten days (240 h each): eight with one interruption, one with three, one with eight.
     * For the last, the rest of the pool had 11 over 2,160 h: 1.222 expected, P(X ≥ 8) ≈ 4e-5, a lemon; for the one
     * with three, 16 over 2,160 h, 1.78 expected, P(X ≥ 3) ≈ 0.26: bad luck.
     */
    @Test
    void aLemonIsFarAboveItsPoolWithItsEvidence() {
        HandCountedFleet.lemonPool(FleetEvents.T0, "a100-spot", "n").forEach(fleet::apply);
        List<LemonNode> lemons = fleet.reliability(30, GroupBy.POOL, null, null).lemons();
        assertThat(lemons).singleElement().satisfies(l -> {
            assertThat(l.node()).isEqualTo("n9");
            assertThat(l.pool()).isEqualTo("a100-spot");
            assertThat(l.interruptions()).isEqualTo(8);
            assertThat(l.expected()).isCloseTo(240 * 11 / 2160.0, within(1e-9));
            assertThat(l.tailProbability()).isLessThan(1e-4).isGreaterThan(1e-5);
            assertThat(l.evidence()).hasSize(8).allSatisfy(e -> {
                assertThat(e.cause()).isEqualTo(InterruptionCause.NOT_READY);
                assertThat(e.detail()).isEqualTo("KubeletNotReady");
            });
            assertThat(l.evidence().get(0).time()).isEqualTo(at(DAY));
        });
        assertThat(fleet.reliability(30, GroupBy.POOL, null, n -> !n.equals("n9"))
                        .lemons())
                .isEmpty();
    }
}
