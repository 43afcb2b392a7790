package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.cordoned;
import static io.lifeline.domain.fleet.FleetEvents.event;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static io.lifeline.domain.fleet.FleetEvents.uncordoned;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.testing.MovableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Signals, notices, cordons and node facts. */
class FleetSignalsTest {

    private static final String N = "ip-10-0-7-17";
    private final MovableClock clock = new MovableClock(at(3600));
    private final Fleet fleet = new Fleet(clock);

    private void readyNode(String node) {
        fleet.apply(registered(node, at(0)));
        fleet.apply(ready(node, at(10)));
    }

    @Test
    void duplicateNoticeForTheSameDeadlineIsNotSignalledTwice() {
        readyNode(N);
        assertThat(fleet.apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140))))
                .hasSize(1);
        // cloud metadata is polled: the same instance-action comes back every few seconds
        assertThat(fleet.apply(notice(N, at(25), NoticeKind.SPOT_RECLAIM, at(140))))
                .isEmpty();
        assertThat(fleet.apply(notice(N, at(30), NoticeKind.SPOT_RECLAIM, at(140))))
                .isEmpty();
        assertThat(fleet.node(N).orElseThrow().notice().receivedAt()).isEqualTo(at(20));
        assertThat(fleet.node(N).orElseThrow().lemon().interruptions()).isEqualTo(1);
    }

    @Test
    void noticeWithAnotherDeadlineOrKindIsSignalledAgain() {
        readyNode(N);
        fleet.apply(notice(N, at(20), NoticeKind.REBALANCE, null));
        List<NodeSignal> s = fleet.apply(notice(N, at(600), NoticeKind.SPOT_RECLAIM, at(720)));
        assertThat(s).singleElement().satisfies(sig -> {
            assertThat(sig.kind()).isEqualTo(Kind.INTERRUPTION_NOTICE);
            assertThat(sig.noticeKind()).isEqualTo(NoticeKind.SPOT_RECLAIM);
            assertThat(sig.deadline()).isEqualTo(at(720));
            assertThat(sig.time()).isEqualTo(at(600));
            assertThat(sig.detail()).isEqualTo("aws");
        });
        assertThat(fleet.apply(notice(N, at(650), NoticeKind.SPOT_RECLAIM, at(700))))
                .hasSize(1);
        assertThat(fleet.node(N).orElseThrow().notice().deadline()).isEqualTo(at(700));
    }

    @Test
    void olderNoticeThanTheOneKnownIsIgnored() {
        readyNode(N);
        fleet.apply(notice(N, at(600), NoticeKind.SPOT_RECLAIM, at(720)));
        assertThat(fleet.apply(notice(N, at(20), NoticeKind.REBALANCE, null))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().notice().kind()).isEqualTo(NoticeKind.SPOT_RECLAIM);
    }

    @Test
    void lateNoticeIsSignalledEvenThoughTheLifecycleAlreadyMovedOn() {
        clock.set(at(135));
        fleet.apply(registered(N, at(0)));
        fleet.apply(notReady(N, at(130)));
        List<NodeSignal> s = fleet.apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        assertThat(s).extracting(NodeSignal::kind).containsExactly(Kind.INTERRUPTION_NOTICE);
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.NOT_READY);
        assertThat(d.noticeActive()).isTrue();
    }

    @Test
    void noticeStaysActiveThroughTheOutageAndEndsWhenTheNodeIsReadyAgain() {
        clock.set(at(30));
        readyNode(N);
        fleet.apply(notice(N, at(20), NoticeKind.MAINTENANCE, at(600)));
        fleet.apply(notReady(N, at(600)));
        assertThat(fleet.nodesWithActiveNotice()).extracting(NodeNotice::node).containsExactly(N);
        fleet.apply(ready(N, at(900)));
        assertThat(fleet.nodesWithActiveNotice()).isEmpty();
        assertThat(fleet.node(N).orElseThrow().notice()).as("kept for history").isNotNull();
    }

    @Test
    void nodesWithActiveNoticeAreListedSoonestDeadlineFirst() {
        clock.set(at(130));
        for (String n : List.of("a", "b", "c", "d")) {
            readyNode(n);
        }
        fleet.apply(notice("a", at(20), NoticeKind.MAINTENANCE, at(86_400)));
        fleet.apply(notice("b", at(20), NoticeKind.REBALANCE, null));
        fleet.apply(notice("c", at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        fleet.apply(notice("d", at(20), NoticeKind.SPOT_RECLAIM, at(130)));
        fleet.apply(terminated("d", at(130)));
        List<NodeNotice> active = fleet.nodesWithActiveNotice();
        assertThat(active).extracting(NodeNotice::node).containsExactly("c", "a", "b");
        assertThat(active.get(0).pool()).isEqualTo("a100-spot");
        assertThat(active.get(0).capacityType()).isEqualTo(CapacityType.SPOT);
        assertThat(active.get(0).notice().kind()).isEqualTo(NoticeKind.SPOT_RECLAIM);
        assertThat(active.get(0).state()).isEqualTo(NodeLifecycle.NOTICE_RECEIVED);
    }

    @Test
    void cordonIsSignalledOnlyWhenItChanges() {
        readyNode(N);
        assertThat(fleet.apply(cordoned(N, at(20))))
                .extracting(NodeSignal::kind)
                .containsExactly(Kind.CORDONED);
        assertThat(fleet.apply(cordoned(N, at(25)))).isEmpty();
        assertThat(fleet.apply(uncordoned(N, at(22))))
                .as("older than the repeat")
                .isEmpty();
        assertThat(fleet.node(N).orElseThrow().cordoned()).isTrue();
        assertThat(fleet.apply(uncordoned(N, at(30))))
                .extracting(NodeSignal::kind)
                .containsExactly(Kind.UNCORDONED);
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.cordoned()).isFalse();
        assertThat(d.cordonSince()).isEqualTo(at(30));
        assertThat(d.state()).as("cordon is beside the lifecycle").isEqualTo(NodeLifecycle.READY);
    }

    @Test
    void terminatedNodeProducesNoFurtherSignals() {
        readyNode(N);
        fleet.apply(terminated(N, at(20)));
        assertThat(fleet.apply(cordoned(N, at(30)))).isEmpty();
        assertThat(fleet.apply(terminated(N, at(40)))).isEmpty();
    }

    @Test
    void reRegistrationStartsANewLife() {
        readyNode(N);
        fleet.apply(cordoned(N, at(15)));
        fleet.apply(notice(N, at(20), NoticeKind.SPOT_RECLAIM, at(140)));
        fleet.apply(terminated(N, at(140)));
        fleet.apply(registered(N, at(1000), "a100-spot", CapacityType.SPOT, 8));
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.REGISTERED);
        assertThat(d.cordoned()).isFalse();
        assertThat(d.notice()).isNull();
        // a notice of the previous instance that arrives late is not news about this one
        assertThat(fleet.apply(notice(N, at(30), NoticeKind.SPOT_RECLAIM, at(150))))
                .isEmpty();
        assertThat(fleet.apply(ready(N, at(1010)))).extracting(NodeSignal::kind).containsExactly(Kind.READY);
    }

    @Test
    void findReturnsTheRegisteredFactsWithSharedStrings() {
        assertThat(fleet.find(N)).isNull();
        fleet.apply(registered(N, at(0), new String("h100-reserved"), CapacityType.RESERVED, 8));
        fleet.apply(registered("other", at(0), new String("h100-reserved"), CapacityType.RESERVED, 8));
        NodeInfo info = fleet.find(N);
        assertThat(info)
                .isEqualTo(new NodeInfo(
                        N, "h100-reserved", CapacityType.RESERVED, "us-east-1a", "p4d.24xlarge", 8, "aws"));
        assertThat(info.pool()).isSameAs(fleet.find("other").pool());
    }

    @Test
    void olderRegistrationDoesNotOverwriteNewerFacts() {
        fleet.apply(registered(N, at(20), "new-pool", CapacityType.ON_DEMAND, 8));
        fleet.apply(registered(N, at(10), "old-pool", CapacityType.SPOT, 4));
        assertThat(fleet.find(N).pool()).isEqualTo("new-pool");
    }

    @Test
    void otherEventFamiliesAreIgnored() {
        var submitted = event(
                EventType.JOB_SUBMITTED,
                "research/llama",
                at(0),
                new JobData.Submitted("research", "ana", null, new ElasticPolicy(2, 4, 8, 3), 8, 1800L));
        assertThat(fleet.apply(submitted)).isEmpty();
        assertThat(fleet.nodes(NodeQuery.all())).isEmpty();
    }

    @Test
    void nodeListFiltersByPoolCapacityStateAndHealth() {
        fleet.apply(registered("spot-1", at(0), "a100-spot", CapacityType.SPOT, 8));
        fleet.apply(registered("spot-2", at(0), "a100-spot", CapacityType.SPOT, 8));
        fleet.apply(registered("res-1", at(0), "h100-reserved", CapacityType.RESERVED, 8));
        fleet.apply(ready("spot-1", at(10)));
        fleet.apply(ready("res-1", at(10)));
        fleet.apply(FleetEvents.xid("res-1", at(20), 2, 79));
        assertThat(fleet.nodes(NodeQuery.all()))
                .extracting(NodeSummary::name)
                .containsExactly("res-1", "spot-1", "spot-2");
        assertThat(fleet.nodes(new NodeQuery("a100-spot", null, null, null)))
                .extracting(NodeSummary::name)
                .containsExactly("spot-1", "spot-2");
        assertThat(fleet.nodes(new NodeQuery(null, CapacityType.RESERVED, null, null)))
                .extracting(NodeSummary::name)
                .containsExactly("res-1");
        assertThat(fleet.nodes(new NodeQuery(null, null, NodeLifecycle.REGISTERED, null)))
                .extracting(NodeSummary::name)
                .containsExactly("spot-2");
        assertThat(fleet.nodes(new NodeQuery(null, null, null, GpuHealth.FAILED)))
                .extracting(NodeSummary::name)
                .containsExactly("res-1");
        NodeSummary s = fleet.nodes(new NodeQuery("a100-spot", CapacityType.SPOT, NodeLifecycle.READY, null))
                .get(0);
        assertThat(s)
                .isEqualTo(new NodeSummary(
                        "spot-1",
                        "a100-spot",
                        CapacityType.SPOT,
                        "us-east-1a",
                        "p4d.24xlarge",
                        8,
                        NodeLifecycle.READY,
                        at(10),
                        false,
                        false,
                        false,
                        GpuHealth.HEALTHY,
                        0));
    }

    @Test
    void oldestTerminatedNodesAreForgottenBeyondTheHistoryBound() {
        FleetSettings settings = FleetSettings.defaults(new MovableClock(at(3600)));
        Fleet small = new Fleet(new FleetSettings(
                settings.clock(),
                settings.xidPolicy(),
                settings.gpuThresholds(),
                settings.lemonWindow(),
                settings.lemonCapacity(),
                2));
        for (String n : List.of("t1", "t2", "back")) {
            small.apply(registered(n, at(0)));
            small.apply(terminated(n, at(10)));
        }
        small.apply(registered("back", at(20)));
        small.apply(registered("t3", at(0)));
        small.apply(terminated("t3", at(30)));
        assertThat(small.nodes(NodeQuery.all()))
                .extracting(NodeSummary::name)
                .as("t1 and t2 fell out; 'back' came back to life and stays")
                .containsExactly("back", "t3");
        assertThat(small.find("t1")).isNull();
    }
}
