package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.MovableClock;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The transition table itself, and what happens to illegal, stale and repeated transitions. */
class NodeLifecycleRulesTest {

    private static final String N = "gpu-node-17";
    private final Fleet fleet = new Fleet(new MovableClock(at(3600)));

    @Test
    void transitionTableIsTheDocumentedOne() {
        assertThat(predecessors(NodeLifecycle.UNKNOWN)).isEmpty();
        assertThat(predecessors(NodeLifecycle.REGISTERED))
                .containsExactlyInAnyOrder(NodeLifecycle.UNKNOWN, NodeLifecycle.TERMINATED);
        assertThat(predecessors(NodeLifecycle.READY))
                .containsExactlyInAnyOrder(
                        NodeLifecycle.UNKNOWN,
                        NodeLifecycle.REGISTERED,
                        NodeLifecycle.NOT_READY,
                        NodeLifecycle.DRAINING);
        assertThat(predecessors(NodeLifecycle.NOT_READY))
                .containsExactlyInAnyOrder(
                        NodeLifecycle.UNKNOWN,
                        NodeLifecycle.REGISTERED,
                        NodeLifecycle.READY,
                        NodeLifecycle.NOTICE_RECEIVED,
                        NodeLifecycle.DRAINING);
        assertThat(predecessors(NodeLifecycle.NOTICE_RECEIVED))
                .containsExactlyInAnyOrder(NodeLifecycle.REGISTERED, NodeLifecycle.READY, NodeLifecycle.NOT_READY);
        assertThat(predecessors(NodeLifecycle.DRAINING))
                .containsExactlyInAnyOrder(
                        NodeLifecycle.REGISTERED,
                        NodeLifecycle.READY,
                        NodeLifecycle.NOT_READY,
                        NodeLifecycle.NOTICE_RECEIVED);
        assertThat(predecessors(NodeLifecycle.TERMINATED))
                .containsExactlyInAnyOrder(
                        NodeLifecycle.UNKNOWN,
                        NodeLifecycle.REGISTERED,
                        NodeLifecycle.READY,
                        NodeLifecycle.NOT_READY,
                        NodeLifecycle.NOTICE_RECEIVED,
                        NodeLifecycle.DRAINING);
    }

    private static Set<NodeLifecycle> predecessors(NodeLifecycle target) {
        Set<NodeLifecycle> out = EnumSet.noneOf(NodeLifecycle.class);
        for (NodeLifecycle from : NodeLifecycle.values()) {
            if (target.canFollow(from)) {
                out.add(from);
            }
        }
        return out;
    }

    @Test
    void terminatedNodeStaysTerminatedWhenReadyArrivesLater() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(terminated(N, at(10)));
        assertThat(fleet.apply(ready(N, at(20)))).isEmpty();
        assertThat(fleet.apply(notReady(N, at(21)))).isEmpty();
        assertThat(fleet.apply(notice(N, at(22), NoticeKind.SPOT_RECLAIM, at(140))))
                .isEmpty();
        assertThat(fleet.markDraining(N, at(23))).isEqualTo(TransitionOutcome.ILLEGAL);
        assertThat(fleet.node(N).orElseThrow().state()).isEqualTo(NodeLifecycle.TERMINATED);
        assertThat(fleet.nodes(NodeQuery.all()))
                .extracting(NodeSummary::state)
                .containsExactly(NodeLifecycle.TERMINATED);
    }

    @Test
    void readyDoesNotEndAPendingNotice() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(notice(N, at(10), NoticeKind.SPOT_RECLAIM, at(130)));
        assertThat(fleet.apply(ready(N, at(20)))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    @Test
    void olderEventNeverOverwritesNewerState() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(30)));
        assertThat(fleet.apply(notReady(N, at(20)))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().state()).isEqualTo(NodeLifecycle.READY);
        assertThat(fleet.markDraining(N, at(5))).isEqualTo(TransitionOutcome.STALE);
    }

    @Test
    void repeatedReadyConfirmsTheStateSoAnOlderNotReadyIsStale() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(10)));
        assertThat(fleet.apply(ready(N, at(50)))).isEmpty();
        assertThat(fleet.apply(notReady(N, at(30)))).isEmpty();
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.READY);
        assertThat(d.stateSince()).isEqualTo(at(10));
    }

    @Test
    void duplicateEventIsHarmless() {
        var notReadyEvent = notReady(N, at(20));
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(10)));
        assertThat(fleet.apply(notReadyEvent)).hasSize(1);
        assertThat(fleet.apply(notReadyEvent)).isEmpty();
        assertThat(fleet.node(N).orElseThrow().lemon().interruptions()).isEqualTo(1);
    }

    @Test
    void drainingTwiceIsUnchangedAndUnknownNodesCannotBeDrained() {
        fleet.apply(registered(N, at(0)));
        assertThat(fleet.markDraining(N, at(10))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(fleet.markDraining(N, at(11))).isEqualTo(TransitionOutcome.UNCHANGED);
        assertThat(fleet.markDraining("nowhere", at(11))).isEqualTo(TransitionOutcome.UNKNOWN_NODE);
        fleet.apply(healthy("telemetry-only", 0).at(at(1)));
        assertThat(fleet.markDraining("telemetry-only", at(11))).isEqualTo(TransitionOutcome.ILLEGAL);
    }

    @Test
    void registeringAgainWhileAliveOnlyUpdatesTheFacts() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(10)));
        fleet.apply(registered(N, at(20), "h100-reserved", CapacityType.RESERVED, 8));
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.READY);
        assertThat(d.facts().pool()).isEqualTo("h100-reserved");
    }
}
