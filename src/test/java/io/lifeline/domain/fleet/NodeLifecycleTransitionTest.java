package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.cordoned;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static io.lifeline.domain.fleet.FleetEvents.uncordoned;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.testing.MovableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per legal lifecycle transition, driven by events (or the explicit drain call), named after it. */
class NodeLifecycleTransitionTest {

    private static final String N = "gpu-node-17";

    private final MovableClock clock = new MovableClock(at(3600));
    private final Fleet fleet = new Fleet(clock);

    private List<NodeSignal> apply(Event e) {
        return fleet.apply(e);
    }

    private NodeLifecycle state() {
        return fleet.node(N).orElseThrow().state();
    }

    private void inUnknown() {
        apply(healthy(N, 0).at(at(0)));
        assertThat(state()).isEqualTo(NodeLifecycle.UNKNOWN);
    }

    private void inRegistered() {
        apply(registered(N, at(0)));
        assertThat(state()).isEqualTo(NodeLifecycle.REGISTERED);
    }

    private void inReady() {
        inRegistered();
        apply(ready(N, at(10)));
        assertThat(state()).isEqualTo(NodeLifecycle.READY);
    }

    private void inNotReady() {
        inReady();
        apply(notReady(N, at(20)));
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    private void inNoticeReceived() {
        inReady();
        apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        assertThat(state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    private void inDraining() {
        inReady();
        assertThat(fleet.markDraining(N, at(20))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(state()).isEqualTo(NodeLifecycle.DRAINING);
    }

    private void inTerminated() {
        inReady();
        apply(terminated(N, at(20)));
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    private void assertSignal(List<NodeSignal> signals, Kind kind) {
        assertThat(signals).extracting(NodeSignal::kind).containsExactly(kind);
        assertThat(signals.get(0).node()).isEqualTo(N);
    }

    // ---- to REGISTERED

    @Test
    void unknownToRegisteredWhenNodeRegisters() {
        inUnknown();
        assertThat(apply(registered(N, at(5)))).isEmpty();
        assertThat(state()).isEqualTo(NodeLifecycle.REGISTERED);
        assertThat(fleet.node(N).orElseThrow().stateSince()).isEqualTo(at(5));
    }

    @Test
    void terminatedToRegisteredWhenNodeReRegisters() {
        inTerminated();
        assertThat(apply(registered(N, at(600)))).isEmpty();
        assertThat(state()).isEqualTo(NodeLifecycle.REGISTERED);
    }

    // ---- to READY

    @Test
    void unknownToReadyWhenReadyArrivesBeforeTheRegistration() {
        inUnknown();
        assertSignal(apply(ready(N, at(5))), Kind.READY);
        assertThat(state()).isEqualTo(NodeLifecycle.READY);
    }

    @Test
    void registeredToReadyWhenNodeBecomesReady() {
        inRegistered();
        assertSignal(apply(ready(N, at(10))), Kind.READY);
        assertThat(state()).isEqualTo(NodeLifecycle.READY);
    }

    @Test
    void notReadyToReadyWhenNodeRecovers() {
        inNotReady();
        assertSignal(apply(ready(N, at(30))), Kind.READY);
        assertThat(state()).isEqualTo(NodeLifecycle.READY);
    }

    @Test
    void drainingToReadyWhenTheDrainIsAbandonedByAnUncordon() {
        inDraining();
        apply(cordoned(N, at(21)));
        List<NodeSignal> signals = apply(uncordoned(N, at(30)));
        assertThat(signals).extracting(NodeSignal::kind).containsExactly(Kind.UNCORDONED, Kind.READY);
        assertThat(state()).isEqualTo(NodeLifecycle.READY);
    }

    // ---- to NOT_READY

    @Test
    void unknownToNotReadyWhenNotReadyArrivesFirst() {
        inUnknown();
        assertSignal(apply(notReady(N, at(5))), Kind.NOT_READY);
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    @Test
    void registeredToNotReadyWhenNodeNeverGetsReady() {
        inRegistered();
        assertSignal(apply(notReady(N, at(10))), Kind.NOT_READY);
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    @Test
    void readyToNotReadyWhenNodeStopsReporting() {
        inReady();
        List<NodeSignal> signals = apply(notReady(N, at(20)));
        assertSignal(signals, Kind.NOT_READY);
        assertThat(signals.get(0).detail()).isEqualTo("KubeletNotReady");
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    @Test
    void noticeReceivedToNotReadyWhenTheAnnouncedOutageBegins() {
        inNoticeReceived();
        assertSignal(apply(notReady(N, at(130))), Kind.NOT_READY);
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    @Test
    void drainingToNotReadyWhenNodeGoesDownDuringTheDrain() {
        inDraining();
        assertSignal(apply(notReady(N, at(30))), Kind.NOT_READY);
        assertThat(state()).isEqualTo(NodeLifecycle.NOT_READY);
    }

    // ---- to NOTICE_RECEIVED

    @Test
    void unknownStaysUnknownWhenANoticeArrivesBeforeTheRegistration() {
        inUnknown();
        NodeChange c = fleet.change(notice(N, at(5), NoticeKind.SPOT_RECLAIM, at(125)));
        assertThat(c.outcome().reason()).isEqualTo(io.lifeline.domain.event.NotAppliedReason.UNKNOWN_NODE);
        assertThat(c.signals()).isEmpty();
        assertThat(state()).isEqualTo(NodeLifecycle.UNKNOWN);
    }

    @Test
    void registeredToNoticeReceivedWhenNoticeArrives() {
        inRegistered();
        assertSignal(apply(notice(N, at(5), NoticeKind.REBALANCE, null)), Kind.INTERRUPTION_NOTICE);
        assertThat(state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    @Test
    void readyToNoticeReceivedWhenSpotReclaimNoticeArrives() {
        inReady();
        List<NodeSignal> signals = apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        assertSignal(signals, Kind.INTERRUPTION_NOTICE);
        assertThat(signals.get(0).noticeKind()).isEqualTo(NoticeKind.SPOT_RECLAIM);
        assertThat(signals.get(0).deadline()).isEqualTo(at(140));
        assertThat(state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    @Test
    void notReadyToNoticeReceivedWhenMaintenanceIsAnnounced() {
        inNotReady();
        assertSignal(apply(notice(N, at(30), NoticeKind.MAINTENANCE, at(86_400))), Kind.INTERRUPTION_NOTICE);
        assertThat(state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    // ---- to DRAINING (explicit, by the drain action)

    @Test
    void registeredToDrainingWhenDrainStarts() {
        inRegistered();
        assertThat(fleet.markDraining(N, at(5))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(state()).isEqualTo(NodeLifecycle.DRAINING);
    }

    @Test
    void readyToDrainingWhenDrainStarts() {
        inReady();
        assertThat(fleet.markDraining(N, at(20))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(state()).isEqualTo(NodeLifecycle.DRAINING);
    }

    @Test
    void notReadyToDrainingWhenDrainStarts() {
        inNotReady();
        assertThat(fleet.markDraining(N, at(30))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(state()).isEqualTo(NodeLifecycle.DRAINING);
    }

    @Test
    void noticeReceivedToDrainingWhenDrainStartsInsideTheNotice() {
        clock.set(at(25));
        inNoticeReceived();
        assertThat(fleet.markDraining(N, at(25))).isEqualTo(TransitionOutcome.APPLIED);
        assertThat(state()).isEqualTo(NodeLifecycle.DRAINING);
        assertThat(fleet.node(N).orElseThrow().noticeActive()).isTrue();
    }

    // ---- to TERMINATED

    @Test
    void unknownToTerminatedWhenTerminationArrivesFirst() {
        inUnknown();
        assertSignal(apply(terminated(N, at(5))), Kind.TERMINATED);
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    @Test
    void registeredToTerminatedWhenNodeTerminates() {
        inRegistered();
        assertSignal(apply(terminated(N, at(5))), Kind.TERMINATED);
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    @Test
    void readyToTerminatedWhenNodeTerminates() {
        inReady();
        List<NodeSignal> signals = apply(terminated(N, at(20)));
        assertSignal(signals, Kind.TERMINATED);
        assertThat(signals.get(0).detail()).isEqualTo("spot reclaimed");
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    @Test
    void notReadyToTerminatedWhenNodeTerminates() {
        inNotReady();
        assertSignal(apply(terminated(N, at(30))), Kind.TERMINATED);
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    @Test
    void noticeReceivedToTerminatedWhenSpotCapacityIsReclaimed() {
        inNoticeReceived();
        assertSignal(apply(terminated(N, at(140))), Kind.TERMINATED);
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }

    @Test
    void drainingToTerminatedWhenTheDrainedNodeGoes() {
        inDraining();
        assertSignal(apply(terminated(N, at(30))), Kind.TERMINATED);
        assertThat(state()).isEqualTo(NodeLifecycle.TERMINATED);
    }
}
