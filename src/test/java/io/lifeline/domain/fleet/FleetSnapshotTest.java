package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A snapshot of the fleet rebuilds the views of changed nodes only, and says the same as the fleet itself. */
class FleetSnapshotTest {

    private final MovableClock clock = new MovableClock(at(3600));
    private final Fleet fleet = new Fleet(FleetSettings.defaults(clock).withLemonWindow(Duration.ofHours(1)));

    private void node(String name) {
        fleet.apply(FleetEvents.registered(name, at(0), "a100-spot", CapacityType.SPOT, 2));
        fleet.apply(FleetEvents.ready(name, at(1)));
        for (int g = 0; g < 2; g++) {
            fleet.apply(FleetEvents.healthy(name, g).at(at(2)));
        }
    }

    @Test
    void unchangedNodesKeepTheirViewsAndChangedOnesAreRebuilt() {
        node("n1");
        node("n2");
        node("n3");
        FleetSnapshot first = fleet.snapshot(FleetSnapshot.EMPTY);
        assertThat(first.rebuilt()).isEqualTo(3);
        assertThat(first.nodes()).extracting(NodeSnapshot::name).containsExactly("n1", "n2", "n3");

        fleet.apply(FleetEvents.cordoned("n2", at(10)));
        FleetSnapshot second = fleet.snapshot(first);

        assertThat(second.rebuilt()).isEqualTo(1);
        assertThat(second.node("n1").orElseThrow()).isSameAs(first.node("n1").orElseThrow());
        assertThat(second.node("n3").orElseThrow()).isSameAs(first.node("n3").orElseThrow());
        assertThat(second.node("n2").orElseThrow().summary().cordoned()).isTrue();
        assertThat(first.node("n2").orElseThrow().summary().cordoned())
                .as("the earlier snapshot stays as it was")
                .isFalse();
        assertThat(fleet.snapshot(second).rebuilt()).as("nothing changed since").isZero();
    }

    @Test
    void aGpuFailureIsSeenInTheNextSnapshotAndItsCountsMatchTheFleets() {
        node("n1");
        node("n2");
        FleetSnapshot before = fleet.snapshot(FleetSnapshot.EMPTY);
        fleet.apply(FleetEvents.healthy("n2", 1).dbe(1L).at(at(20)));
        fleet.apply(FleetEvents.notice("n1", at(21), NoticeKind.SPOT_RECLAIM, at(141)));
        FleetSnapshot after = fleet.snapshot(before);

        assertThat(after.node("n2").orElseThrow().summary().health()).isEqualTo(GpuHealth.FAILED);
        assertThat(after.gpuHealthByPool()).isEqualTo(fleet.gpuHealthByPool());
        assertThat(after.nodesWithActiveNotice()).isEqualTo(fleet.nodesWithActiveNotice());
        assertThat(after.summaries()).isEqualTo(fleet.nodes(NodeQuery.all()));
        assertThat(after.gpus()).containsExactlyInAnyOrderElementsOf(fleet.gpus());
        assertThat(before.gpuHealthByPool())
                .singleElement()
                .satisfies(p -> assertThat(p.failed()).isZero());
    }

    @Test
    void aLemonScoreFollowsTheClockWithoutAnyEvent() {
        node("n1");
        fleet.apply(FleetEvents.notReady("n1", at(3000)));
        FleetSnapshot now = fleet.snapshot(FleetSnapshot.EMPTY);
        assertThat(now.node("n1").orElseThrow().summary().lemonScore()).isEqualTo(1);

        clock.advance(Duration.ofHours(2));
        FleetSnapshot later = fleet.snapshot(now);
        assertThat(later.node("n1").orElseThrow().summary().lemonScore())
                .as("the interruption left the window")
                .isZero();
    }

    @Test
    void aNodeTakingAForgottenNodesPlaceIsNotTakenForIt() {
        // History of one terminated node: "a" is forgotten when "b" terminates, and "c" takes the place "a" had.
        Fleet small = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofHours(1),
                8,
                1));
        small.apply(FleetEvents.registered("a", at(0)));
        small.apply(FleetEvents.registered("b", at(0)));
        small.apply(FleetEvents.terminated("a", at(10)));
        FleetSnapshot first = small.snapshot(FleetSnapshot.EMPTY);
        small.apply(FleetEvents.terminated("b", at(20)));
        small.apply(FleetEvents.registered("c", at(30)));
        FleetSnapshot second = small.snapshot(first);

        assertThat(second.node("a")).isEmpty();
        assertThat(second.node("c").orElseThrow().name()).isEqualTo("c");
        assertThat(second.node("b").orElseThrow().summary().state()).isEqualTo(NodeLifecycle.TERMINATED);
        assertThat(second.nodes()).extracting(NodeSnapshot::name).containsExactly("b", "c");
        assertThat(second.size()).isEqualTo(2);
        assertThat(first.node("a").orElseThrow().summary().state())
                .as("the earlier snapshot stays as it was")
                .isEqualTo(NodeLifecycle.TERMINATED);
        assertThat(first.node("c")).isEmpty();
        FleetSnapshot third = small.snapshot(second);
        assertThat(third.node("c").orElseThrow())
                .as("unchanged since")
                .isSameAs(second.node("c").orElseThrow());
    }

    @Test
    void forgottenNodesLeaveAndASnapshotOfAnotherFleetIsNotReused() {
        Fleet small = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofHours(1),
                8,
                1));
        small.apply(FleetEvents.registered("a", at(0)));
        small.apply(FleetEvents.registered("b", at(0)));
        FleetSnapshot first = small.snapshot(FleetSnapshot.EMPTY);
        small.apply(FleetEvents.terminated("a", at(10)));
        small.apply(FleetEvents.terminated("b", at(20)));
        FleetSnapshot second = small.snapshot(first);
        assertThat(second.nodes())
                .extracting(NodeSnapshot::name)
                .as("one terminated node kept as history")
                .containsExactly("b");

        node("a");
        FleetSnapshot other = fleet.snapshot(second);
        assertThat(other.rebuilt()).isEqualTo(1);
        assertThat(other.node("a").orElseThrow().summary().state()).isEqualTo(NodeLifecycle.READY);
    }
}
