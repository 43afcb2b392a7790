package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.lifeline.domain.event.EventType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Objects no API server sends but a watcher must survive, found by {@link KubernetesObjectsFuzzTest}. */
class HostileObjectsTest {

    private final Captured out = new Captured();

    @Test
    void aTaintWithoutAKeyIsNoNoticeAndTheNodeIsStillTranslated() {
        NodeWatcher nodes = new NodeWatcher(out.ctx, List.of(), "default", null);
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-1")
                .withUid("u1")
                .endMetadata()
                .withNewSpec()
                .addNewTaint()
                .withValue("x")
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .build();

        nodes.onAdd(node);

        assertThat(out.of("gpu-1", EventType.NODE_REGISTERED)).hasSize(1);
        assertThat(out.of(EventType.NODE_INTERRUPTION_NOTICE)).isEmpty();
        assertThat(nodes.stats().rejected()).isZero();
    }

    @Test
    void nullEntriesInAnObjectsListsAreSkipped() {
        NodeWatcher nodes = new NodeWatcher(out.ctx, List.of(), "default", null);
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-3")
                .withUid("u3")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime("2026-03-01T10:00:00Z")
                .endCondition()
                .endStatus()
                .build();
        node.getSpec().setTaints(new java.util.ArrayList<>(java.util.Collections.singletonList(null)));
        node.getStatus().getConditions().add(0, null);
        ResourceEventHandler<Pod> pods =
                new PodWatcher(out.ctx, new TrainingPods(), null).handler(PodScheme.PYTORCHJOB);
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("echo-worker-0")
                .withNamespace("team-k")
                .withUid("p0")
                .addToLabels(PodWatcher.JOB_LABEL, "echo")
                .endMetadata()
                .withNewStatus()
                .endStatus()
                .build();
        pod.getStatus().setConditions(new java.util.ArrayList<>(java.util.Collections.singletonList(null)));
        pod.getStatus().setContainerStatuses(new java.util.ArrayList<>(java.util.Collections.singletonList(null)));

        nodes.onAdd(node);
        pods.onAdd(pod);

        assertThat(out.of("gpu-3", EventType.NODE_READY)).hasSize(1);
        assertThat(out.of(EventType.POD_EVICTED)).isEmpty();
    }

    @Test
    void objectsWithoutANameAreRejectedAndNothingIsTranslated() {
        NodeWatcher nodes = new NodeWatcher(out.ctx, List.of(), "default", null);
        TrainingPods training = new TrainingPods();
        ResourceEventHandler<Pod> pods = new PodWatcher(out.ctx, training, null).handler(PodScheme.PYTORCHJOB);
        PyTorchJobWatcher jobs = new PyTorchJobWatcher(out.ctx, training, null);
        Node named = new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-2")
                .withResourceVersion("1")
                .endMetadata()
                .build();
        Pod nameless = new PodBuilder()
                .withNewMetadata()
                .withNamespace("team-k")
                .addToLabels(PodWatcher.JOB_LABEL, "echo")
                .endMetadata()
                .build();

        nodes.onAdd(new Node());
        nodes.onUpdate(
                named,
                new NodeBuilder()
                        .withNewMetadata()
                        .withResourceVersion("2")
                        .endMetadata()
                        .build());
        nodes.onDelete(new Node(), false);
        pods.onAdd(nameless);
        pods.onDelete(new Pod(), false);
        jobs.onAdd(new GenericKubernetesResource());
        jobs.onDelete(new GenericKubernetesResource(), true);

        assertThat(out.all()).isEmpty();
        assertThat(nodes.stats().rejectionsByReason()).isEqualTo(Map.of(KubeContext.UNNAMED_OBJECT, 3L));
        assertThat(training.pods()).isZero();
    }
}
