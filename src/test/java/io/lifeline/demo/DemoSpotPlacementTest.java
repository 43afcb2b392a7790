package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.job.spot.SpotPlacement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-in demo fleet shows the spot placement check: pool spot-p5 has two on-demand nodes beside its spot ones;
 * mixtral-8x7b-sft prefers them and keeps rank 0 there, llama3-70b-pretrain runs rank 0 on spot and is flagged.
 */
class DemoSpotPlacementTest {

    @Test
    void oneJobRunsRankZeroOnSpotWhileOnDemandExistsInItsPool() {
        Instant start = TestScenarios.START;
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), start);
        Instant end = start.plus(Duration.ofMinutes(5));
        Fleet fleet = new Fleet(Clock.fixed(end, ZoneOffset.UTC));
        LifelineModel model = new LifelineModel(fleet, Clock.fixed(end, ZoneOffset.UTC));
        for (Event e : sim.advanceTo(end)) {
            model.apply(e);
        }
        SpotPlacement llama = model.jobs()
                .detail("research/llama3-70b-pretrain")
                .orElseThrow()
                .placement();
        assertThat(llama.flagged()).isTrue();
        assertThat(llama.onDemandPools()).containsExactly("spot-p5");
        assertThat(llama.coordinators().get(0).capacityType()).isEqualTo("spot");

        SpotPlacement mixtral =
                model.jobs().detail("research/mixtral-8x7b-sft").orElseThrow().placement();
        assertThat(mixtral.flagged()).isFalse();
        assertThat(mixtral.coordinators()).singleElement().satisfies(c -> {
            assertThat(c.node()).startsWith("spot-p5-ondemand-");
            assertThat(c.capacityType()).isEqualTo("on-demand");
        });
        assertThat(model.jobs().list(io.lifeline.domain.job.JobFilter.all()))
                .filteredOn(j -> j.state().isActive())
                .extracting(j ->
                        model.jobs().detail(j.name()).orElseThrow().placement().flagged())
                .containsOnlyOnce(true);
    }

    /** The check is kept between reads, and taken again once the nodes' facts change, not only the job's ranks. */
    @Test
    void theFlagFollowsTheOnDemandCapacityOfThePoolWithoutAnyChangeToTheJob() {
        Instant start = TestScenarios.START;
        FleetSimulator sim = new FleetSimulator(new ScenarioParser().loadDefault(), start);
        Instant end = start.plus(Duration.ofMinutes(5));
        Fleet fleet = new Fleet(Clock.fixed(end, ZoneOffset.UTC));
        LifelineModel model = new LifelineModel(fleet, Clock.fixed(end, ZoneOffset.UTC));
        for (Event e : sim.advanceTo(end)) {
            model.apply(e);
        }
        String llama = "research/llama3-70b-pretrain";
        SpotPlacement before = model.jobs().detail(llama).orElseThrow().placement();
        assertThat(before.flagged()).isTrue();
        assertThat(model.jobs().detail(llama).orElseThrow().placement())
                .as("kept while nothing changed")
                .isSameAs(before);

        List<String> onDemand = fleet.nodes(NodeQuery.all()).stream()
                .filter(n -> "spot-p5".equals(n.pool()) && n.capacityType() == CapacityType.ON_DEMAND)
                .map(NodeSummary::name)
                .toList();
        assertThat(onDemand).hasSize(2);
        int i = 0;
        for (String node : onDemand) {
            model.apply(new Event(
                    "gone-" + i++,
                    "test://fleet",
                    EventType.NODE_TERMINATED,
                    node,
                    end,
                    new NodeData.Terminated("test")));
        }
        SpotPlacement alone = model.jobs().detail(llama).orElseThrow().placement();
        assertThat(alone.flagged()).as("no on-demand node left in its pool").isFalse();
        assertThat(alone.onDemandPools()).isEmpty();

        model.apply(new Event(
                "back",
                "test://fleet",
                EventType.NODE_REGISTERED,
                "spot-p5-ondemand-9",
                end,
                new NodeData.Registered("spot-p5", CapacityType.ON_DEMAND, "us-east-1a", "p5.48xlarge", 8, null)));
        SpotPlacement again = model.jobs().detail(llama).orElseThrow().placement();
        assertThat(again.flagged())
                .as("on-demand capacity registered in its pool again")
                .isTrue();
        assertThat(again.onDemandPools()).containsExactly("spot-p5");
    }
}
