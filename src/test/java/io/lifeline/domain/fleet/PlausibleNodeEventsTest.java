package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.event;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.uuid;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.MovableClock;
import org.junit.jupiter.api.Test;

/**
 * A node event must fit its node: an interruption notice its capacity type and cloud, and a known instance; an XID a
 * GPU the node reported. What does not fit is not applied, with the reason, and raises nothing a policy acts on.
 */
class PlausibleNodeEventsTest {

    private final MovableClock clock = new MovableClock(at(30));
    private final Fleet fleet = new Fleet(clock);

    private void node(String name, CapacityType capacity, String providerId, int gpus) {
        fleet.apply(event(
                EventType.NODE_REGISTERED,
                name,
                at(0),
                new NodeData.Registered("pool", capacity, "us-east-1a", "p5.48xlarge", gpus, providerId)));
        fleet.apply(ready(name, at(1)));
    }

    private NodeChange notice(String node, NoticeKind kind, String provider) {
        return fleet.change(event(
                EventType.NODE_INTERRUPTION_NOTICE,
                node,
                at(10),
                new NodeData.InterruptionNotice(kind, provider, at(130))));
    }

    private NodeChange xid(String node, String uuid, int index) {
        return fleet.change(event(EventType.GPU_XID, node, at(12), new GpuData.Xid(uuid, index, 79, null)));
    }

    private static void refused(NodeChange c, NotAppliedReason reason, String... detail) {
        assertThat(c.outcome().kind()).isEqualTo(ApplyOutcome.Kind.NOT_APPLIED);
        assertThat(c.outcome().reason()).isEqualTo(reason);
        assertThat(c.outcome().detail()).contains(detail);
        assertThat(c.signals()).isEmpty();
    }

    @Test
    void aRebalanceFromAwsForAnOnDemandNodeIsImplausible() {
        node("od-1", CapacityType.ON_DEMAND, "aws:///us-east-1a/i-0od1", 8);
        refused(
                notice("od-1", NoticeKind.REBALANCE, "aws"),
                NotAppliedReason.IMPLAUSIBLE,
                "rebalance notice for od-1, registered as on-demand capacity");
        refused(notice("od-1", NoticeKind.SPOT_RECLAIM, "aws"), NotAppliedReason.IMPLAUSIBLE, "spot_reclaim");
        refused(notice("od-1", NoticeKind.PREEMPT, "kubernetes"), NotAppliedReason.IMPLAUSIBLE, "preempt");
        assertThat(fleet.node("od-1").orElseThrow().notice()).isNull();
        assertThat(fleet.node("od-1").orElseThrow().state()).isEqualTo(NodeLifecycle.READY);
    }

    @Test
    void maintenanceOfAnOnDemandOrReservedNodeFits() {
        node("od-2", CapacityType.ON_DEMAND, "aws:///us-east-1a/i-0od2", 8);
        node("rs-1", CapacityType.RESERVED, null, 8);
        assertThat(notice("od-2", NoticeKind.MAINTENANCE, "aws").outcome().changed())
                .isTrue();
        assertThat(notice("rs-1", NoticeKind.MAINTENANCE, "kubernetes")
                        .outcome()
                        .changed())
                .isTrue();
    }

    @Test
    void aNoticeFromAnotherCloudThanTheNodesIsImplausible() {
        node("gke-1", CapacityType.SPOT, "gce://proj/us-central1-a/gke-1", 8);
        refused(
                notice("gke-1", NoticeKind.SPOT_RECLAIM, "aws"),
                NotAppliedReason.IMPLAUSIBLE,
                "a notice from aws for gke-1, registered with a provider id of gcp");
        refused(notice("gke-1", NoticeKind.PREEMPT, "azure"), NotAppliedReason.IMPLAUSIBLE, "from azure");
        assertThat(notice("gke-1", NoticeKind.PREEMPT, "gcp").outcome().changed())
                .isTrue();
    }

    @Test
    void aNoticeFromASourceThatIsNotACloudOrForANodeWithoutAProviderIdIsJudgedByCapacityAlone() {
        node("spot-1", CapacityType.SPOT, "aws:///us-east-1a/i-0s1", 8);
        node("bare-1", CapacityType.SPOT, null, 8);
        assertThat(notice("spot-1", NoticeKind.MAINTENANCE, "nvsentinel")
                        .outcome()
                        .changed())
                .isTrue();
        assertThat(notice("bare-1", NoticeKind.SPOT_RECLAIM, "azure").outcome().changed())
                .isTrue();
    }

    @Test
    void aNoticeForANodeNeverRegisteredIsRefused() {
        refused(
                notice("ghost-1", NoticeKind.SPOT_RECLAIM, "aws"),
                NotAppliedReason.UNKNOWN_NODE,
                "no node.registered of ghost-1");
        assertThat(fleet.node("ghost-1").map(NodeDetail::notice).orElse(null)).isNull();
    }

    @Test
    void anXidMustNameAGpuTheNodeReported() {
        node("gpu-1", CapacityType.SPOT, "aws:///us-east-1a/i-0g1", 8);
        fleet.apply(healthy("gpu-1", 0).at(at(5)));
        // A made-up UUID at a sampled index, a sampled UUID at the wrong index, an index the node does not have.
        refused(
                xid("gpu-1", "GPU-forged-0000", 0),
                NotAppliedReason.UNKNOWN_GPU,
                "GPU 0 of gpu-1 is " + uuid("gpu-1", 0),
                "never reported");
        refused(xid("gpu-1", uuid("gpu-1", 0), 3), NotAppliedReason.UNKNOWN_GPU, "reports it at index 0");
        refused(xid("gpu-1", "GPU-forged-0009", 9), NotAppliedReason.UNKNOWN_GPU, "registered 8 GPU(s)");
        assertThat(fleet.node("gpu-1").orElseThrow().health()).isNotEqualTo(io.lifeline.domain.gpu.GpuHealth.FAILED);
        // The sampled GPU by its UUID, and an index the registration counts whose UUID is not reported yet.
        assertThat(xid("gpu-1", uuid("gpu-1", 0), 0).signals()).isNotEmpty();
        assertThat(xid("gpu-1", uuid("gpu-1", 5), 5).outcome().changed()).isTrue();
    }

    @Test
    void anXidOfANodeNeitherRegisteredNorSampledIsRefused() {
        refused(xid("ghost-2", uuid("ghost-2", 0), 0), NotAppliedReason.UNKNOWN_GPU, "has not registered");
    }

    @Test
    void theProviderIsTheCloudOfTheProviderId() {
        assertThat(NodeInfo.providerOf("aws:///us-east-1a/i-0abc")).isEqualTo("aws");
        assertThat(NodeInfo.providerOf("gce://proj/zone/name")).isEqualTo("gcp");
        assertThat(NodeInfo.providerOf("azure:///subscriptions/s/x")).isEqualTo("azure");
        assertThat(NodeInfo.providerOf("kind://docker/kind/kind-worker")).isEqualTo("kind");
        assertThat(NodeInfo.providerOf("i-0abc")).isNull();
        assertThat(NodeInfo.providerOf(null)).isNull();
    }

    @Test
    void anEventReadBackGetsTheSameAnswer() {
        Event reg = event(
                EventType.NODE_REGISTERED,
                "od-3",
                at(0),
                new NodeData.Registered(
                        "pool", CapacityType.ON_DEMAND, "us-east-1a", "p5.48xlarge", 8, "aws:///us-east-1a/i-0od3"));
        Event forged = event(
                EventType.NODE_INTERRUPTION_NOTICE,
                "od-3",
                at(10),
                new NodeData.InterruptionNotice(NoticeKind.REBALANCE, "aws", at(130)));
        fleet.apply(reg);
        NodeChange live = fleet.change(forged);
        Fleet replayed = new Fleet(clock);
        replayed.restore(fleet.save());
        Fleet fromLog = new Fleet(clock);
        fromLog.apply(reg);
        assertThat(fromLog.change(forged).outcome()).isEqualTo(live.outcome());
        assertThat(replayed.change(forged).outcome().reason()).isEqualTo(NotAppliedReason.IMPLAUSIBLE);
    }
}
