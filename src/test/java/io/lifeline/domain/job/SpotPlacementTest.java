package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.spot.CoordinatorRole;
import io.lifeline.domain.job.spot.SpotPlacement;
import io.lifeline.domain.job.spot.SpotPrices;
import io.lifeline.domain.job.spot.SpotReport;
import io.lifeline.domain.job.spot.SpotVerdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The placement check on a job's own events, on the jobs' injected clock: rank 0 and the rendezvous endpoint are
 * flagged on spot while the job's pools offer on-demand capacity, and no longer once a round moves them.
 */
class SpotPlacementTest {

    /** Pool "mixed": s1, s2 spot, d1 on-demand. */
    private static JobDriver mixedPool() {
        JobDriver d = new JobDriver("ml/llm");
        d.nodes
                .add("s1", "mixed", CapacityType.SPOT, 8)
                .add("s2", "mixed", CapacityType.SPOT, 8)
                .add("d1", "mixed", CapacityType.ON_DEMAND, 8);
        d.submit("10:00:00", 1, 3, 8, 1800L).admit("10:00:00");
        return d;
    }

    @Test
    void rankZeroOnASpotNodeIsFlaggedWhileOnDemandExistsInItsPool() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        d.now("10:05:00");
        SpotPlacement p = d.detail().placement();
        assertThat(p.flagged()).isTrue();
        assertThat(p.endpointReported()).isFalse();
        assertThat(p.pools()).containsExactly("mixed");
        assertThat(p.onDemandPools()).containsExactly("mixed");
        assertThat(p.coordinators()).singleElement().satisfies(c -> {
            assertThat(c.node()).isEqualTo("s1");
            assertThat(c.roles()).containsExactly(CoordinatorRole.RANK_0, CoordinatorRole.RENDEZVOUS_ENDPOINT);
            assertThat(c.capacityType()).isEqualTo("spot");
            assertThat(c.onSpot()).isTrue();
        });
        assertThat(p.warning())
                .contains("rank 0 and the rendezvous endpoint run on spot node s1 (pool mixed)")
                .contains("on-demand capacity exists in pool mixed");
    }

    @Test
    void rankZeroOnOnDemandWithWorkersOnSpotIsTheAdvisedPlacement() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "d1", "s1", "s2").progress("10:00:20", 1);
        SpotPlacement p = d.detail().placement();
        assertThat(p.flagged()).isFalse();
        assertThat(p.warning()).isNull();
        assertThat(p.coordinators()).singleElement().satisfies(c -> {
            assertThat(c.node()).isEqualTo("d1");
            assertThat(c.onSpot()).isFalse();
        });
    }

    @Test
    void aSpotOnlyPoolHasNothingBetterToOffer() {
        JobDriver d = new JobDriver("ml/llm");
        d.nodes.add("s1", "spot-only", CapacityType.SPOT, 8).add("s2", "spot-only", CapacityType.SPOT, 8);
        d.submit("10:00:00", 1, 2, 8, 1800L).admit("10:00:00");
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        assertThat(d.detail().placement().flagged()).isFalse();
        assertThat(d.detail().placement().onDemandPools()).isEmpty();
    }

    @Test
    void aReportedEndpointOnSpotIsFlaggedEvenWhenRankZeroIsOnDemand() {
        JobDriver d = mixedPool();
        d.rendezvousWithEndpoint("10:00:10", 1, 8, "s2", "d1", "s1", "s2").progress("10:00:20", 1);
        SpotPlacement p = d.detail().placement();
        assertThat(p.flagged()).isTrue();
        assertThat(p.endpointReported()).isTrue();
        assertThat(p.coordinators()).hasSize(2);
        assertThat(p.coordinators().get(1).node()).isEqualTo("s2");
        assertThat(p.coordinators().get(1).roles()).containsExactly(CoordinatorRole.RENDEZVOUS_ENDPOINT);
        assertThat(p.warning()).startsWith("the rendezvous endpoint runs on spot node s2");
    }

    @Test
    void theFlagClearsWhenANewRoundPutsRankZeroOnOnDemand() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        assertThat(d.detail().placement().flagged()).isTrue();
        d.rendezvous("11:00:00", 2, 8, "d1", "s1", "s2").progress("11:00:10", 2);
        d.now("11:30:00");
        assertThat(d.detail().placement().flagged()).isFalse();
    }

    @Test
    void theFlagClearsWhenThePoolLosesItsOnDemandNodes() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        d.nodes.remove("d1");
        assertThat(d.detail().placement().flagged()).isFalse();
    }

    @Test
    void aJobThatEndedIsNotChecked() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        d.finished("10:30:00", io.lifeline.domain.event.JobData.Outcome.SUCCEEDED);
        assertThat(d.detail().placement()).isEqualTo(SpotPlacement.NONE);
    }

    /**
     * The scenario of {@code AdviceAndRollupTest}: 4 spot nodes in pool-a, 10:00–16:00, C = 40 s (median of 40, 40,
     * 50), two interruptions each recovered in R = 120 s, exposure (21600 − 240) × 4 = 85440 node-s on spot.
     *
     * <p>Spot: λ = 2 / (85440 / 3600) = 0.084270 per node-hour; M = 85440 / 2 / 4 = 10680 s;
     * τ = √(2 · 40 · 10680) − 40 = 924.338 − 40 = 884.338 s;
     * ETTR = 1 − 40/884.338 − 884.338/21360 − 120/10680 = 1 − 0.045232 − 0.041402 − 0.011236 = 0.902131.
     *
     * <p>On-demand: pool-a never ran on-demand, taken as never reclaimed: ETTR = 1 − C/τ at the configured 1800 s
     * = 1 − 40/1800 = 0.977778.
     *
     * <p>At spot 1.00 and on-demand 1.10 per GPU-hour: spot 1.00 / 0.902131 = 1.108487, on-demand
     * 1.10 / 0.977778 = 1.125000: spot is cheaper. At spot 1.05: 1.05 / 0.902131 = 1.163911 > 1.125: on-demand is,
     * with a warning.
     */
    @Test
    void theVerdictUsesTheJobsOwnHistoryAndThePoolsReclaimRate() {
        JobDriver d = new JobDriver("ml/big");
        d.nodes.addRange("n", 4, "pool-a", CapacityType.SPOT, 8);
        d.runningOn(4, "10:00:00");
        d.checkpointStarted("10:29:20", "c1", 1, false).checkpointCompleted("10:30:00", "c1", 1, 40, 40, false);
        d.checkpointStarted("10:59:20", "c2", 2, false).checkpointCompleted("11:00:00", "c2", 2, 40, 40, false);
        d.checkpointStarted("11:29:10", "c3", 3, false).checkpointCompleted("11:30:00", "c3", 3, 50, 50, false);
        d.workerFailed("12:00:00", 9, "n2").restarted("12:00:30", 1).progress("12:02:00", 10);
        d.workerFailed("14:00:00", 9, "n2").restarted("14:00:30", 2).progress("14:02:00", 20);
        d.now("16:00:00");

        SpotReport cheap = d.jobs.spot("ml/big", prices(1.00, 1.10)).orElseThrow();
        assertThat(cheap.intervals()).extracting(i -> i.capacityType()).containsExactly("spot", "on-demand");
        assertThat(cheap.intervals().get(0).interruptionsPerNodeHour()).isCloseTo(0.084270, within(1e-6));
        assertThat(cheap.intervals().get(0).advice().recommendedSeconds()).isCloseTo(884.338, within(1e-3));
        assertThat(cheap.intervals().get(1).interruptionsPerNodeHour()).isNull();
        assertThat(cheap.intervals().get(1).advice().recommendedSeconds()).isNull();
        SpotVerdict v = cheap.verdict();
        assertThat(v.pool()).isEqualTo("pool-a");
        assertThat(v.spot().ettr()).isCloseTo(0.902131, within(1e-6));
        assertThat(v.spot().costPerUsefulGpuHour()).isCloseTo(1.108487, within(1e-6));
        assertThat(v.onDemand().ettr()).isCloseTo(0.977778, within(1e-6));
        assertThat(v.onDemand().costPerUsefulGpuHour()).isCloseTo(1.125000, within(1e-6));
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.SPOT);
        assertThat(v.warning()).isNull();

        SpotVerdict dear =
                d.jobs.spot("ml/big", prices(1.05, 1.10)).orElseThrow().verdict();
        assertThat(dear.spot().costPerUsefulGpuHour()).isCloseTo(1.163911, within(1e-6));
        assertThat(dear.cheaper()).isEqualTo(SpotVerdict.Choice.ON_DEMAND);
        assertThat(dear.warning()).contains("spot costs 1.16 per useful GPU-hour, on-demand 1.13");
    }

    @Test
    void withoutPricesTheVerdictIsUnknownAndSaysWhy() {
        JobDriver d = mixedPool();
        d.rendezvous("10:00:10", 1, 8, "s1", "s2").progress("10:00:20", 1);
        SpotVerdict v = d.jobs.spot("ml/llm", SpotPrices.NONE).orElseThrow().verdict();
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.UNKNOWN);
        assertThat(v.notes()).anyMatch(n -> n.contains("no price per GPU-hour configured for spot in pool mixed"));
    }

    private static SpotPrices prices(double spot, double onDemand) {
        return new SpotPrices(
                Map.of("pool-a", Map.of(CapacityType.SPOT, spot, CapacityType.ON_DEMAND, onDemand)), Map.of());
    }

    private static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }
}
