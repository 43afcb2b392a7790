package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.connector.EventContract;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Node wrapper against the fabric8 mock API server (CRUD mode). */
@EnableKubernetesMockClient(crud = true)
class NodeWatcherTest {

    private static final List<String> POOL_LABELS = List.of("karpenter.sh/nodepool", "eks.amazonaws.com/nodegroup");
    private static final String T1 = "2026-03-01T10:00:00Z";
    private static final String T2 = "2026-03-01T10:05:00Z";

    KubernetesClient client;
    private SharedIndexInformer<Node> informer;

    @AfterEach
    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    private static Node gpuNode(String name) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("karpenter.sh/capacity-type", "spot")
                .addToLabels("karpenter.sh/nodepool", "gpu-spot")
                .addToLabels("topology.kubernetes.io/zone", "us-east-1a")
                .addToLabels("node.kubernetes.io/instance-type", "p4d.24xlarge")
                .endMetadata()
                .withNewSpec()
                .withProviderID("aws:///us-east-1a/i-0abc123")
                .endSpec()
                .withNewStatus()
                .addToCapacity("nvidia.com/gpu", new Quantity("8"))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime(T1)
                .endCondition()
                .endStatus()
                .build();
    }

    private SharedIndexInformer<Node> watch(Captured out, long resyncMillis) {
        SharedIndexInformer<Node> i =
                new NodeWatcher(out.ctx, POOL_LABELS, "default", null).start(client, resyncMillis);
        i.start().toCompletableFuture().join();
        return i;
    }

    @Test
    void firstSightRegistersWithFactsThenReadinessCordonTaintAndDeletionFollow() {
        Captured out = new Captured();
        informer = watch(out, 0);
        client.nodes().resource(gpuNode("gpu-1")).create();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gpu-1", EventType.NODE_UNCORDONED).size() == 1);
        Event registered = out.of("gpu-1", EventType.NODE_REGISTERED).get(0);
        assertThat(registered.data())
                .isEqualTo(new NodeData.Registered(
                        "gpu-spot", CapacityType.SPOT, "us-east-1a", "p4d.24xlarge", 8, "aws:///us-east-1a/i-0abc123"));
        assertThat(registered.source()).isEqualTo("kubernetes/test");
        Event ready = out.of("gpu-1", EventType.NODE_READY).get(0);
        assertThat(ready.time()).isEqualTo(Instant.parse(T1));

        Node n = client.nodes().withName("gpu-1").get();
        n.getStatus().getConditions().get(0).setStatus("False");
        n.getStatus().getConditions().get(0).setReason("KubeletNotReady");
        n.getStatus().getConditions().get(0).setLastTransitionTime(T2);
        client.nodes().resource(n).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gpu-1", EventType.NODE_NOT_READY).size() == 1);
        assertThat(out.of("gpu-1", EventType.NODE_NOT_READY).get(0).data())
                .isEqualTo(new NodeData.NotReady("KubeletNotReady"));

        n = client.nodes().withName("gpu-1").get();
        n.getSpec().setUnschedulable(true);
        n.getSpec()
                .getTaints()
                .add(new TaintBuilder()
                        .withKey("aws-node-termination-handler/spot-itn")
                        .withValue("spot-itn-2b5c")
                        .withEffect("NoSchedule")
                        .build());
        client.nodes().resource(n).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gpu-1", EventType.NODE_INTERRUPTION_NOTICE).size() == 1);
        assertThat(out.of("gpu-1", EventType.NODE_CORDONED)).hasSize(1);
        assertThat(out.of("gpu-1", EventType.NODE_INTERRUPTION_NOTICE).get(0).data())
                .isEqualTo(new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", null));

        client.nodes().withName("gpu-1").delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gpu-1", EventType.NODE_TERMINATED).size() == 1);
        assertThat(out.of("gpu-1", EventType.NODE_READY)).hasSize(1);
        assertThat(out.of("gpu-1", EventType.NODE_REGISTERED)).hasSize(1);
        EventContract.assertRoundTrips(out.all());
    }

    /**
     * A GKE spot node under the kubelet's graceful node shutdown: Ready turns False with the shutdown manager's
     * status ({@code node is shutting down}, kubernetes/kubernetes pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go
     * {@code ShutdownStatus}, @ 9d26641844bb569950a7b02b2a141c6b184a96fc) and the kubelet's {@code KubeletNotReady}.
     */
    @Test
    void theKubeletsGracefulShutdownOfAGkeSpotNodeIsAPreemptNotice() {
        Captured out = new Captured();
        informer = watch(out, 0);
        Node gke = new NodeBuilder()
                .withNewMetadata()
                .withName("gke-spot-1")
                .addToLabels("cloud.google.com/gke-spot", "true")
                .addToLabels("cloud.google.com/gke-nodepool", "a3-spot")
                .endMetadata()
                .withNewSpec()
                .withProviderID("gce://proj/us-central1-a/gke-spot-1")
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime(T1)
                .endCondition()
                .endStatus()
                .build();
        client.nodes().resource(gke).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gke-spot-1", EventType.NODE_READY).size() == 1);

        Node n = client.nodes().withName("gke-spot-1").get();
        n.getStatus().getConditions().get(0).setStatus("False");
        n.getStatus().getConditions().get(0).setReason("KubeletNotReady");
        n.getStatus().getConditions().get(0).setMessage("node is shutting down");
        n.getStatus().getConditions().get(0).setLastTransitionTime(T2);
        client.nodes().resource(n).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        out.of("gke-spot-1", EventType.NODE_INTERRUPTION_NOTICE).size() == 1);
        assertThat(out.of("gke-spot-1", EventType.NODE_INTERRUPTION_NOTICE)
                        .get(0)
                        .data())
                .isEqualTo(new NodeData.InterruptionNotice(
                        NoticeKind.PREEMPT, "gcp", Instant.parse(T2).plusSeconds(30)));
        assertThat(out.of("gke-spot-1", EventType.NODE_NOT_READY)).hasSize(1);
        // A node that is merely not ready is no notice.
        assertThat(out.of("gpu-1", EventType.NODE_INTERRUPTION_NOTICE)).isEmpty();
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void resyncsAddNothing() throws InterruptedException {
        Captured out = new Captured();
        informer = watch(out, 200);
        client.nodes().resource(gpuNode("gpu-2")).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of("gpu-2", EventType.NODE_UNCORDONED).size() == 1);
        int before = out.all().size();
        Thread.sleep(1500); // several resync periods
        assertThat(out.all()).hasSize(before);
    }

    @Test
    void aRestartedWatcherDerivesTheSameIdsForUnchangedState() {
        client.nodes().resource(gpuNode("gpu-3")).create();
        Captured first = new Captured();
        informer = watch(first, 0);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> first.of("gpu-3", EventType.NODE_UNCORDONED).size() == 1);
        informer.stop();
        Captured second = new Captured();
        informer = watch(second, 0);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> second.of("gpu-3", EventType.NODE_UNCORDONED).size() == 1);
        assertThat(second.all())
                .extracting(Event::id)
                .containsExactlyInAnyOrderElementsOf(
                        first.all().stream().map(Event::id).toList());
    }

    @Test
    void capacityTypeComesFromEachProvidersLabels() {
        assertThat(NodeWatcher.capacityType(Map.of("karpenter.sh/capacity-type", "on-demand")))
                .isEqualTo(CapacityType.ON_DEMAND);
        assertThat(NodeWatcher.capacityType(Map.of("karpenter.sh/capacity-type", "reserved")))
                .isEqualTo(CapacityType.RESERVED);
        assertThat(NodeWatcher.capacityType(Map.of("eks.amazonaws.com/capacityType", "SPOT")))
                .isEqualTo(CapacityType.SPOT);
        assertThat(NodeWatcher.capacityType(Map.of("eks.amazonaws.com/capacityType", "ON_DEMAND")))
                .isEqualTo(CapacityType.ON_DEMAND);
        assertThat(NodeWatcher.capacityType(Map.of("eks.amazonaws.com/capacityType", "CAPACITY_BLOCK")))
                .isEqualTo(CapacityType.RESERVED);
        assertThat(NodeWatcher.capacityType(Map.of("cloud.google.com/gke-spot", "true")))
                .isEqualTo(CapacityType.SPOT);
        assertThat(NodeWatcher.capacityType(Map.of("cloud.google.com/gke-preemptible", "true")))
                .isEqualTo(CapacityType.SPOT);
        assertThat(NodeWatcher.capacityType(Map.of("kubernetes.azure.com/scalesetpriority", "spot")))
                .isEqualTo(CapacityType.SPOT);
        assertThat(NodeWatcher.capacityType(Map.of())).isEqualTo(CapacityType.ON_DEMAND);
    }

    @Test
    void poolFallsBackToTheDefaultAndAnUnlabelledNodeIsOnDemand() {
        Node bare = new NodeBuilder()
                .withNewMetadata()
                .withName("bare")
                .withUid("u-1")
                .endMetadata()
                .build();
        NodeData.Registered facts = new NodeWatcher(new Captured().ctx, POOL_LABELS, "default", null).facts(bare);
        assertThat(facts).isEqualTo(new NodeData.Registered("default", CapacityType.ON_DEMAND, null, null, 0, null));
    }
}
