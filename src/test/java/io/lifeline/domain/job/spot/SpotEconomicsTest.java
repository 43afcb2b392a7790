package io.lifeline.domain.job.spot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spot-vs-on-demand arithmetic against numbers worked out by hand. One job of N = 4 nodes, checkpoint cost
 * C = 60 s, recovery R = 300 s per interruption, current interval 1800 s.
 */
class SpotEconomicsTest {

    private static final int NODES = 4;
    private static final double C = 60;
    private static final double R = 300;

    /**
     * Spot: 40 interruptions in 400 node-hours → λ = 0.1 per node-hour; M = 3600 / (4 · 0.1) = 9000 s.
     * τ = √(2 · 60 · 9000) − 60 = √1080000 − 60 = 1039.2305 − 60 = 979.2305 s (C/M = 0.0067: first order holds).
     * ETTR = 1 − 60/979.2305 − 979.2305/18000 − 300/9000 = 1 − 0.0612726 − 0.0544017 − 0.0333333 = 0.8509924.
     * At 1.20 per GPU-hour: 1.20 / 0.8509924 = 1.4101184.
     *
     * <p>On-demand: 1 interruption in 1000 node-hours → λ = 0.001; M = 3600 / (4 · 0.001) = 900000 s.
     * τ = √(2 · 60 · 900000) − 60 = 10392.3048 − 60 = 10332.3048 s.
     * ETTR = 1 − 60/10332.3048 − 10332.3048/1800000 − 300/900000 = 1 − 0.0058070 − 0.0057402 − 0.0003333 = 0.9881195.
     * At 3.00 per GPU-hour: 3.00 / 0.9881195 = 3.0360701. Spot is cheaper.
     */
    @Test
    void spotIsCheaperWhenItsReclaimsAreRareEnoughForTheCheckpoints() {
        CapacityCost spot = cost(CapacityType.SPOT, 40, 400, 1.20, false);
        CapacityCost onDemand = cost(CapacityType.ON_DEMAND, 1, 1000, 3.00, true);
        assertThat(spot.interruptionsPerNodeHour()).isCloseTo(0.1, within(1e-12));
        assertThat(spot.mtbiSeconds()).isCloseTo(9000, within(1e-9));
        assertThat(spot.intervalSeconds()).isCloseTo(979.2305, within(1e-4));
        assertThat(spot.ettr()).isCloseTo(0.8509924, within(1e-7));
        assertThat(spot.costPerUsefulGpuHour()).isCloseTo(1.4101184, within(1e-7));
        assertThat(onDemand.mtbiSeconds()).isCloseTo(900000, within(1e-6));
        assertThat(onDemand.intervalSeconds()).isCloseTo(10332.3048, within(1e-4));
        assertThat(onDemand.ettr()).isCloseTo(0.9881195, within(1e-7));
        assertThat(onDemand.costPerUsefulGpuHour()).isCloseTo(3.0360701, within(1e-7));
        SpotVerdict v = SpotEconomics.verdict("mixed", spot, onDemand, 0.9);
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.SPOT);
        assertThat(v.warning()).isNull();
        assertThat(v.formula()).isEqualTo(SpotEconomics.FORMULA);
    }

    /**
     * Spot reclaimed 200 times in 400 node-hours → λ = 0.5; M = 3600 / (4 · 0.5) = 1800 s.
     * τ = √(2 · 60 · 1800) − 60 = √216000 − 60 = 464.7580 − 60 = 404.7580 s.
     * ETTR = 1 − 60/404.7580 − 404.7580/3600 − 300/1800 = 1 − 0.1482367 − 0.1124328 − 0.1666667 = 0.5726638.
     * At 2.80 per GPU-hour: 2.80 / 0.5726638 = 4.8894305 > 3.0360701 on on-demand: spot costs more, a warning.
     */
    @Test
    void spotCostsMoreWhenReclaimsComeTooOftenForTheCheckpoints() {
        CapacityCost spot = cost(CapacityType.SPOT, 200, 400, 2.80, false);
        CapacityCost onDemand = cost(CapacityType.ON_DEMAND, 1, 1000, 3.00, true);
        assertThat(spot.intervalSeconds()).isCloseTo(404.7580, within(1e-4));
        assertThat(spot.ettr()).isCloseTo(0.5726638, within(1e-7));
        assertThat(spot.costPerUsefulGpuHour()).isCloseTo(4.8894305, within(1e-7));
        SpotVerdict v = SpotEconomics.verdict("mixed", spot, onDemand, 0.6);
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.ON_DEMAND);
        assertThat(v.warning())
                .isEqualTo("spot costs 4.89 per useful GPU-hour, on-demand 3.04: reclaims in pool mixed "
                        + "come too often for the checkpoints to keep up, so on-demand is cheaper for this job");
    }

    /** No interruption in 500 on-demand node-hours: the checkpoint overhead alone, 1 − 60/1800 = 0.9666667. */
    @Test
    void withoutAnInterruptionOnlyTheCheckpointOverheadCounts() {
        CapacityCost onDemand = cost(CapacityType.ON_DEMAND, 0, 500, 3.00, true);
        assertThat(onDemand.interruptionsPerNodeHour()).isEqualTo(0.0);
        assertThat(onDemand.intervalSeconds()).isEqualTo(1800.0);
        assertThat(onDemand.ettr()).isCloseTo(0.9666667, within(1e-7));
        assertThat(onDemand.costPerUsefulGpuHour()).isCloseTo(3.1034483, within(1e-7));
    }

    /** Spot never run in the pool: its reclaim rate is unknown, and so is the verdict. */
    @Test
    void spotNeverRunInThePoolLeavesTheVerdictUnknown() {
        CapacityCost spot = cost(CapacityType.SPOT, 0, 0, 1.20, false);
        CapacityCost onDemand = cost(CapacityType.ON_DEMAND, 0, 500, 3.00, true);
        assertThat(spot.ettr()).isNull();
        SpotVerdict v = SpotEconomics.verdict("mixed", spot, onDemand, null);
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.UNKNOWN);
        assertThat(v.notes()).contains("spot: ETTR unknown: never run in these pools");
    }

    /** A spot ETTR clamped to 0 (C ≥ 2M) yields no useful work at any price: on-demand, with a warning. */
    @Test
    void spotThatKeepsNoUsefulWorkLosesToOnDemand() {
        CapacityCost spot = cost(CapacityType.SPOT, 4000, 400, 0.50, false);
        CapacityCost onDemand = cost(CapacityType.ON_DEMAND, 1, 1000, 3.00, true);
        assertThat(spot.ettr()).isEqualTo(0.0);
        assertThat(spot.costPerUsefulGpuHour()).isNull();
        SpotVerdict v = SpotEconomics.verdict("mixed", spot, onDemand, null);
        assertThat(v.cheaper()).isEqualTo(SpotVerdict.Choice.ON_DEMAND);
        assertThat(v.warning()).contains("keep any useful work");
    }

    private static CapacityCost cost(
            CapacityType type, long interruptions, double nodeHours, double price, boolean noExposureMeansNone) {
        var exposure = new IntervalAdvisor.Exposure(List.of("mixed"), nodeHours * 3600, interruptions);
        var advice = IntervalAdvisor.advise("ml/llm", 1800.0, "configured", C, 3, exposure, NODES, R);
        return SpotEconomics.cost(SpotEconomics.interval(type, advice), price, noExposureMeansNone);
    }
}
