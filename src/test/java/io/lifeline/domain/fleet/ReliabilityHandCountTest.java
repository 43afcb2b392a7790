package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.event;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static io.lifeline.domain.fleet.FleetEvents.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.LemonNode;
import io.lifeline.domain.fleet.reliability.PoolRate;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * MTBF per pool on a seeded fleet, against a hand count. T0 is 2025-11-03 09:00 UTC; "now" is ten days later.
 *
 * <pre>
 * pool a100-spot (spot, us-east-1a, p4d.24xlarge)
 *   s1  registered 0, spot notice at day 1, not ready +100 s and terminated +120 s (the announced outage: one
 *       interruption)                                                      86,520 s in service, 1 interruption
 *   s2  registered 0, not ready at day 2 (ready 10 min later), XID 79 at day 3     864,000 s, 2 interruptions
 *   s3  registered at day 5                                                          432,000 s, 0
 *   s4  registered 0, terminated unannounced at day 4                               345,600 s, 1
 *   total 1,728,120 s = 480.0333 node-hours, 4 interruptions: MTBF 120.0083 h
 * pool h100-od (on-demand, us-east-1b, p5.48xlarge)
 *   o1  registered 0                                                                864,000 s, 0
 *   o2  registered 0, not ready at days 1..5 (ready 10 min after each)             864,000 s, 5
 *   total 1,728,000 s = 480 node-hours, 5 interruptions: MTBF 96 h
 * </pre>
 */
class ReliabilityHandCountTest {

    private static final long DAY = 86_400;
    private final MutableClock clock = new MutableClock(at(10 * DAY));
    private final Fleet fleet = new Fleet(FleetSettings.defaults(clock));

    private void seed() {
        fleet.apply(registered("s1", at(0)));
        fleet.apply(ready("s1", at(10)));
        fleet.apply(notice("s1", at(DAY), NoticeKind.SPOT_RECLAIM, at(DAY + 120)));
        fleet.apply(notReady("s1", at(DAY + 100)));
        fleet.apply(terminated("s1", at(DAY + 120)));

        fleet.apply(registered("s2", at(0)));
        fleet.apply(ready("s2", at(10)));
        fleet.apply(notReady("s2", at(2 * DAY)));
        fleet.apply(ready("s2", at(2 * DAY + 600)));
        fleet.apply(xid("s2", at(3 * DAY), 0, 79));

        fleet.apply(registered("s3", at(5 * DAY)));
        fleet.apply(registered("s4", at(0)));
        fleet.apply(terminated("s4", at(4 * DAY)));

        fleet.apply(onDemand("o1"));
        fleet.apply(onDemand("o2"));
        for (int d = 1; d <= 5; d++) {
            fleet.apply(notReady("o2", at(d * DAY)));
            fleet.apply(ready("o2", at(d * DAY + 600)));
        }
    }

    private static io.lifeline.domain.event.Event onDemand(String node) {
        return event(EventType.NODE_REGISTERED, node, at(0), new NodeData.Registered("h100-od", CapacityType.ON_DEMAND,
                "us-east-1b", "p5.48xlarge", 8, "aws:///us-east-1b/" + node));
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
        assertThat(spot.byCause()).containsEntry("spot-reclaim", 1L).containsEntry("not-ready", 1L)
                .containsEntry("gpu-failure", 1L).containsEntry("termination", 1L);
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
        assertThat(rows(fleet.reliability(30, GroupBy.CAPACITY_TYPE, null, null)).keySet())
                .containsExactlyInAnyOrder("spot", "on-demand");
        assertThat(rows(fleet.reliability(30, GroupBy.ZONE, null, null)).get("us-east-1b").mtbfHours())
                .isCloseTo(96, within(1e-9));
        assertThat(rows(fleet.reliability(30, GroupBy.INSTANCE_TYPE, null, null)).get("p4d.24xlarge")
                .interruptions()).isEqualTo(4);
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
        ReliabilityRow row = fleet.reliability(30, GroupBy.POOL, null, null).rows().get(0);
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
        assertThat(fleet.poolRate(List.of("a100-spot", "h100-od"), CapacityType.ON_DEMAND).interruptions()).isEqualTo(5);
    }

    @Test
    void theLedgerSurvivesACheckpointAndForgottenNodes() {
        seed();
        Fleet restored = new Fleet(FleetSettings.defaults(clock));
        restored.restore(fleet.save());
        assertThat(restored.reliability(30, GroupBy.POOL, null, null))
                .isEqualTo(fleet.reliability(30, GroupBy.POOL, null, null));
        // A fleet keeping no terminated node still counts the service of the ones it forgot.
        Fleet forgetful = new Fleet(new FleetSettings(clock, io.lifeline.domain.gpu.XidPolicy.loadDefault(),
                io.lifeline.domain.gpu.GpuThresholds.defaults(), Duration.ofDays(7), 64, 0));
        forgetful.apply(registered("gone", at(0)));
        forgetful.apply(terminated("gone", at(DAY)));
        assertThat(forgetful.node("gone")).isEmpty();
        ReliabilityRow row = forgetful.reliability(30, GroupBy.POOL, null, null).rows().get(0);
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
        for (int i = 0; i < 10; i++) {
            fleet.apply(registered("n" + i, at(0)));
        }
        for (int i = 0; i < 8; i++) {
            fleet.apply(notReady("n" + i, at(DAY + i)));
            fleet.apply(ready("n" + i, at(DAY + i + 60)));
        }
        for (int d = 1; d <= 3; d++) {
            fleet.apply(notReady("n8", at(d * DAY)));
            fleet.apply(ready("n8", at(d * DAY + 60)));
        }
        for (int d = 1; d <= 8; d++) {
            fleet.apply(notReady("n9", at(d * DAY)));
            fleet.apply(ready("n9", at(d * DAY + 60)));
        }
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
        assertThat(fleet.reliability(30, GroupBy.POOL, null, n -> !n.equals("n9")).lemons()).isEmpty();
    }
}
