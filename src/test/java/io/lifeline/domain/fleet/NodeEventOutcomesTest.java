package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static io.lifeline.domain.fleet.FleetEvents.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What each node event did to the fleet: changed it, confirmed it (a repeat), or was not applied, with the reason.
 * Event time decides against what the node knows (its registration, the newer value of the same register); a notice's
 * deadline against the clock, which only decides whether it is at risk, never what the fleet holds.
 */
class NodeEventOutcomesTest {

    private static final String N = "spot-17";

    /** "Now" is 30 s after the node registered. */
    private final MovableClock clock = new MovableClock(at(30));

    private final Fleet fleet = new Fleet(clock);

    private NodeChange registeredAndReady() {
        fleet.apply(registered(N, at(0)));
        return fleet.change(ready(N, at(1)));
    }

    @Test
    void aNoticeOlderThanTheNodesRegistrationIsStaleAndRaisesNothing() {
        registeredAndReady();

        NodeChange c = fleet.change(notice(N, at(-60), NoticeKind.SPOT_RECLAIM, at(60)));

        assertThat(c.outcome().kind()).isEqualTo(ApplyOutcome.Kind.NOT_APPLIED);
        assertThat(c.outcome().reason()).isEqualTo(NotAppliedReason.STALE);
        assertThat(c.outcome().detail()).contains("older than the node's registration at " + at(0));
        assertThat(c.signals()).isEmpty();
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.READY);
        assertThat(d.notice()).isNull();
        assertThat(fleet.nodesWithActiveNotice()).isEmpty();
    }

    @Test
    void aTimelyNoticeChangesTheNodeAndARepeatChangesNothing() {
        registeredAndReady();

        NodeChange first = fleet.change(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        NodeChange repeat = fleet.change(notice(N, at(25), NoticeKind.SPOT_RECLAIM, at(140)));

        assertThat(first.outcome()).isEqualTo(ApplyOutcome.CHANGED);
        assertThat(first.signals()).extracting(NodeSignal::kind).containsExactly(NodeSignal.Kind.INTERRUPTION_NOTICE);
        assertThat(repeat.outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
        assertThat(repeat.signals()).isEmpty();
        assertThat(fleet.nodesWithActiveNotice()).extracting(NodeNotice::node).containsExactly(N);
        NodeSummary s = fleet.nodes(NodeQuery.all()).get(0);
        assertThat(s.noticeActive()).isTrue();
        assertThat(s.noticeExpired()).isFalse();
    }

    @Test
    void aNoticeWhoseDeadlineHadPassedIsExpiredKeptAsHistoryAndNotAtRisk() {
        registeredAndReady();
        clock.set(at(600));

        NodeChange c = fleet.change(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));

        assertThat(c.outcome().reason()).isEqualTo(NotAppliedReason.EXPIRED);
        assertThat(c.outcome().detail()).contains("deadline " + at(140) + " had passed");
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state())
                .as("history, by event time: the log read back gives the same fleet")
                .isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
        assertThat(d.notice().expired()).isTrue();
        assertThat(d.noticeActive()).isFalse();
        assertThat(d.noticeExpired()).isTrue();
        assertThat(fleet.nodesWithActiveNotice()).isEmpty();
        NodeSummary s = fleet.nodes(NodeQuery.all()).get(0);
        assertThat(s.noticeActive()).isFalse();
        assertThat(s.noticeExpired()).isTrue();
    }

    @Test
    void aNoticeStopsBeingAtRiskWhenItsDeadlinePassesAndTheNextSnapshotSaysSo() {
        registeredAndReady();
        fleet.apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        FleetSnapshot before = fleet.snapshot(FleetSnapshot.EMPTY);
        assertThat(before.nodesWithActiveNotice()).extracting(NodeNotice::node).containsExactly(N);

        clock.advance(Duration.ofSeconds(110));
        FleetSnapshot after = fleet.snapshot(before);

        assertThat(after.nodesWithActiveNotice()).isEmpty();
        assertThat(after.node(N).orElseThrow().detail().notice().expired()).isTrue();
        assertThat(after.node(N).orElseThrow().summary().noticeExpired()).isTrue();
    }

    @Test
    void aNoticeForATerminatedNodeIsNotApplied() {
        registeredAndReady();
        fleet.apply(terminated(N, at(10)));

        NodeChange c = fleet.change(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));

        assertThat(c.outcome().reason()).isEqualTo(NotAppliedReason.NODE_TERMINATED);
        assertThat(c.signals()).isEmpty();
    }

    @Test
    void lifecycleEventsSayWhetherTheyMovedTheNode() {
        assertThat(registeredAndReady().outcome()).isEqualTo(ApplyOutcome.CHANGED);
        assertThat(fleet.change(ready(N, at(2))).outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
        NodeChange older = fleet.change(FleetEvents.notReady(N, at(0)));
        assertThat(older.outcome().reason()).isEqualTo(NotAppliedReason.STALE);
        assertThat(older.outcome().detail()).contains("the node's state (ready) at " + at(2));
        fleet.apply(terminated(N, at(10)));
        assertThat(fleet.change(ready(N, at(11))).outcome().reason()).isEqualTo(NotAppliedReason.NODE_TERMINATED);
    }

    @Test
    void gpuEventsOlderThanWhatTheGpuKnowsAreStale() {
        registeredAndReady();
        assertThat(fleet.change(healthy(N, 0).at(at(5))).outcome()).isEqualTo(ApplyOutcome.CHANGED);

        assertThat(fleet.change(healthy(N, 0).at(at(4))).outcome().reason()).isEqualTo(NotAppliedReason.STALE);
        assertThat(fleet.change(xid(N, at(-5), 0, 79)).outcome().reason()).isEqualTo(NotAppliedReason.STALE);
        assertThat(fleet.change(xid(N, at(6), 0, 79)).outcome()).isEqualTo(ApplyOutcome.CHANGED);
        assertThat(fleet.change(xid(N, at(6), 0, 79)).outcome())
                .as("the same XID at the same time")
                .isEqualTo(ApplyOutcome.UNCHANGED);
        assertThat(fleet.change(healthy(N, 64).at(at(7))).outcome().reason()).isEqualTo(NotAppliedReason.OUT_OF_RANGE);
    }
}
