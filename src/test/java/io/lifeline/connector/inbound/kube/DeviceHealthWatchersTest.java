package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.connector.inbound.pipeline.HostNodes;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionPlanner;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.policy.PolicyDecision;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.testing.Fixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Device health and rejected pods against the fabric8 mock API server (CRUD mode), from the producers' own shapes:
 * the NVIDIA DRA driver's ResourceSlice taints, Kubernetes' DeviceTaintRule and ResourceSlice API test data, a pod's
 * {@code allocatedResourcesStatus}, and the pod the kubelet rejected in pytorch/ci-infra#1058.
 */
@EnableKubernetesMockClient(crud = true)
class DeviceHealthWatchersTest {

    private static final String NODE = "ip-10-4-164-212";
    private static final String GPU0 = "GPU-4d1b2ab7-5c1d-3f4e-9a6b-0e1f2a3b4c5d";
    private static final String GPU1 = "GPU-9e8d7c6b-5a4f-3e2d-1c0b-a9f8e7d6c5b4";

    KubernetesClient client;
    private final Captured out = new Captured();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    @AfterEach
    void stop() {
        informers.forEach(SharedIndexInformer::stop);
    }

    private <T extends SharedIndexInformer<?>> T started(T informer) {
        informers.add(informer);
        informer.start().toCompletableFuture().join();
        return informer;
    }

    private GenericKubernetesResource load(String fixture) throws Exception {
        return client.getKubernetesSerialization().unmarshal(Fixtures.text(fixture), GenericKubernetesResource.class);
    }

    private Pod rejectedPod(int i) throws Exception {
        Pod p = client.getKubernetesSerialization()
                .unmarshal(Fixtures.text("k8s/pod_failed_unexpected_admission_error.yaml"), Pod.class);
        p.getMetadata().setName(p.getMetadata().getName() + "-" + i);
        p.getMetadata().setUid(null);
        p.getMetadata().setCreationTimestamp(null);
        p.getStatus()
                .setStartTime(Instant.parse("2026-09-04T14:49:22Z")
                        .plusSeconds(30L * i)
                        .toString());
        return p;
    }

    // ---- DRA device taints ----

    @Test
    void theDriversTaintsOnAResourceSliceBecomeGpuHealthAndTheirRemovalToo() throws Exception {
        DraDevices dra = new DraDevices();
        DeviceTaintWatcher w = new DeviceTaintWatcher(out.ctx, dra);
        started(w.startSlices(client, "v1", 0));
        GenericKubernetesResource slice = client.genericKubernetesResources(DeviceTaintWatcher.slices("v1"))
                .resource(load("k8s/resourceslice_nvidia_gpu_xid_taint.yaml"))
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 2);
        List<GpuData.DeviceHealth> first = health();
        assertThat(first)
                .containsExactlyInAnyOrder(
                        new GpuData.DeviceHealth(
                                GPU0,
                                -1,
                                GpuData.DeviceHealth.DRA_TAINT,
                                "gpu.nvidia.com/gpu-node-7/gpu-0",
                                "NoSchedule",
                                "gpu.nvidia.com/xid=79:NoSchedule"),
                        // The MIG device counts for its parent GPU.
                        new GpuData.DeviceHealth(
                                GPU1,
                                -1,
                                GpuData.DeviceHealth.DRA_TAINT,
                                "gpu.nvidia.com/gpu-node-7/gpu-1-mig-1g10gb-19-0",
                                "None",
                                "gpu.nvidia.com/unmonitored:None"));
        assertThat(out.of(EventType.GPU_DEVICE_HEALTH))
                .allMatch(e -> e.subject().equals("gpu-node-7"));
        assertThat(dra.lookup("gpu.nvidia.com/gpu-node-7/gpu-1").uuid()).isEqualTo(GPU1);

        // The driver republishes the slice without the XID taint once the GPU is fine.
        @SuppressWarnings("unchecked")
        Map<String, Object> gpu0 = (Map<String, Object>)
                ((List<?>) ((Map<?, ?>) slice.getAdditionalProperties().get("spec")).get("devices")).get(0);
        gpu0.remove("taints");
        client.genericKubernetesResources(DeviceTaintWatcher.slices("v1"))
                .resource(slice)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 3);
        assertThat(health().get(2))
                .isEqualTo(new GpuData.DeviceHealth(
                        GPU0, -1, GpuData.DeviceHealth.DRA_TAINT, "gpu.nvidia.com/gpu-node-7/gpu-0", "Healthy", null));

        // Applied to the model: GPU 0 failed on the taint, healthy again once it is gone.
        Fleet fleet = fleet("gpu-node-7", 2);
        List<Event> evs = out.of(EventType.GPU_DEVICE_HEALTH);
        fleet.apply(sample("gpu-node-7", GPU0, 0));
        fleet.apply(sample("gpu-node-7", GPU1, 1));
        fleet.apply(evs.get(0));
        fleet.apply(evs.get(1));
        assertThat(fleet.node("gpu-node-7").orElseThrow().gpus().get(0).health())
                .isEqualTo(GpuHealth.FAILED);
        assertThat(fleet.node("gpu-node-7").orElseThrow().gpus().get(0).source())
                .isEqualTo("dra-taint");
        assertThat(fleet.node("gpu-node-7").orElseThrow().gpus().get(1).health())
                .isEqualTo(GpuHealth.DEGRADED);
        fleet.apply(evs.get(2));
        assertThat(fleet.node("gpu-node-7").orElseThrow().gpus().get(0).health())
                .isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void aDeviceTaintRuleTaintsTheDevicesItSelects() throws Exception {
        DraDevices dra = new DraDevices();
        DeviceTaintWatcher w = new DeviceTaintWatcher(out.ctx, dra);
        started(w.startSlices(client, "v1", 0));
        started(w.startRules(client, "v1beta2", 0));
        client.genericKubernetesResources(DeviceTaintWatcher.slices("v1"))
                .resource(load("k8s/resourceslice_nvidia_gpu_xid_taint.yaml"))
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 2);

        // Kubernetes' own v1beta2 test object, its placeholders pointed at a device of the slice. Its effect is the
        // placeholder "effectValue": an effect unknown to this release counts as None, as the API asks consumers.
        GenericKubernetesResource rule = load("k8s/devicetaintrule_v1beta2_api_testdata.yaml");
        rule.getMetadata().setNamespace(null);
        rule.getMetadata().setDeletionTimestamp(null);
        rule.getMetadata().setDeletionGracePeriodSeconds(null);
        rule.getMetadata().setFinalizers(null);
        rule.getMetadata().setResourceVersion(null);
        rule.getMetadata().setOwnerReferences(null);
        rule.getMetadata().setManagedFields(null);
        @SuppressWarnings("unchecked")
        Map<String, Object> selector = (Map<String, Object>)
                ((Map<String, Object>) rule.getAdditionalProperties().get("spec")).get("deviceSelector");
        selector.put("driver", "gpu.nvidia.com");
        selector.put("pool", "gpu-node-7");
        selector.put("device", "gpu-1");
        rule = client.genericKubernetesResources(DeviceTaintWatcher.rules("v1beta2"))
                .resource(rule)
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 3);
        assertThat(health().get(2).uuid()).isEqualTo(GPU1);
        assertThat(health().get(2).state()).isEqualTo("None");
        assertThat(health().get(2).detail())
                .isEqualTo("gpu.nvidia.com/unmonitored:None, keyValue=valueValue:effectValue");

        @SuppressWarnings("unchecked")
        Map<String, Object> taint = (Map<String, Object>)
                ((Map<String, Object>) rule.getAdditionalProperties().get("spec")).get("taint");
        taint.put("effect", "NoExecute");
        client.genericKubernetesResources(DeviceTaintWatcher.rules("v1beta2"))
                .resource(rule)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 4);
        assertThat(health().get(3).state()).isEqualTo("NoExecute");

        client.genericKubernetesResources(DeviceTaintWatcher.rules("v1beta2"))
                .resource(rule)
                .delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 5);
        assertThat(health().get(4).state()).isEqualTo("None");
        assertThat(health().get(4).detail()).isEqualTo("gpu.nvidia.com/unmonitored:None");
    }

    @Test
    void kubernetesOwnSliceTestDataNamesNoGpuAndGivesNothing() throws Exception {
        GenericKubernetesResource slice = load("k8s/resourceslice_v1_api_testdata.yaml");
        assertThat(DraDevices.devices(slice))
                .as("its device has no uuid attribute")
                .isEmpty();
        assertThat(new DraDevices().slice(slice, "test", Instant.now())).isEmpty();
    }

    // ---- allocatedResourcesStatus ----

    @Test
    void aPodsAllocatedResourcesStatusBecomesKubeletHealthOfItsGpus() throws Exception {
        DraDevices dra = new DraDevices();
        PodWatcher pods = new PodWatcher(out.ctx, new TrainingPods(), new HostNodes(), dra);
        started(pods.start(client, 0));
        Pod pod = client.getKubernetesSerialization()
                .unmarshal(Fixtures.text("k8s/pod_allocated_resources_status_gpu.yaml"), Pod.class);
        pod.getMetadata().setResourceVersion(null);
        pod = client.pods().inNamespace("default").resource(pod).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 2);
        assertThat(health())
                .extracting(GpuData.DeviceHealth::uuid, GpuData.DeviceHealth::source, GpuData.DeviceHealth::state)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(GPU0, "kubelet", "Unhealthy"),
                        org.assertj.core.groups.Tuple.tuple(GPU1, "kubelet", "Healthy"));
        assertThat(health().get(0).detail()).contains("pod default/elastic-echo-worker-0", "nvidia.com/gpu");

        // A resync or an unrelated change says nothing new; a device's change does.
        pod.getMetadata().getLabels().put("unrelated", "x");
        pod = client.pods().inNamespace("default").resource(pod).update();
        pod.getStatus()
                .getContainerStatuses()
                .get(0)
                .getAllocatedResourcesStatus()
                .get(0)
                .getResources()
                .get(0)
                .setHealth("Healthy");
        client.pods().inNamespace("default").resource(pod).update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.GPU_DEVICE_HEALTH).size() == 3);
        assertThat(health().get(2).uuid()).isEqualTo(GPU0);
        assertThat(health().get(2).state()).isEqualTo("Healthy");
    }

    @Test
    void aDraDeviceIdIsMappedThroughThePublishedSlicesOrCountedAsUnmapped() throws Exception {
        Pod pod = client.getKubernetesSerialization()
                .unmarshal(Fixtures.text("k8s/pod_allocated_resources_status_gpu.yaml"), Pod.class);
        DraDevices dra = new DraDevices();
        var t = PodDeviceHealth.changes(null, pod, "test", dra, Instant.now());
        assertThat(t.rejections()).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo("unmapped_device");
            assertThat(r.detail()).contains("gpu.nvidia.com/gpu-node-7/gpu-2");
        });
        // The same id once the driver publishes the device.
        pod.getStatus()
                .getContainerStatuses()
                .get(0)
                .getAllocatedResourcesStatus()
                .get(1)
                .getResources()
                .get(0)
                .setResourceID("gpu.nvidia.com/gpu-node-7/gpu-1");
        dra.slice(load("k8s/resourceslice_nvidia_gpu_xid_taint.yaml"), "test", Instant.now());
        var mapped = PodDeviceHealth.changes(null, pod, "test", dra, Instant.now());
        assertThat(mapped.rejections()).isEmpty();
        assertThat(mapped.events())
                .extracting(e -> ((GpuData.DeviceHealth) e.data()).device())
                .contains("gpu.nvidia.com/gpu-node-7/gpu-1");
    }

    // ---- nodes that swallow pods ----

    @Test
    void podsRejectedOnOneNodeMakeItASuspectThatThePolicyCordonsInOnAndOnlyRecordsInDryRun() throws Exception {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(NODE)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build())
                .create();
        AdmissionFailureWatcher w =
                new AdmissionFailureWatcher(out.ctx, Set.of("UnexpectedAdmissionError", "DeviceNotReady"));
        // The mock API server cannot select pods by status.phase (the real one can): every pod is read here, and the
        // translation alone tells the rejections (a Running pod, a pod failed for another reason are none).
        started(w.start(client, 0, false));
        Pod running = rejectedPod(98);
        running.getStatus().setPhase("Running");
        client.pods().inNamespace("arc-runners").resource(running).create();
        // A pod that failed for another reason on the same node is not a rejection.
        Pod other = rejectedPod(99);
        other.getStatus().setReason("OOMKilled");
        other.getStatus().setMessage("container ran out of memory");
        client.pods().inNamespace("arc-runners").resource(other).create();
        for (int i = 0; i < 5; i++) {
            client.pods().inNamespace("arc-runners").resource(rejectedPod(i)).create();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(NODE, EventType.NODE_ADMISSION_FAILED).size() == 5);
        Event first = out.of(NODE, EventType.NODE_ADMISSION_FAILED).get(0);
        assertThat(first.data()).isInstanceOfSatisfying(NodeData.AdmissionFailed.class, a -> {
            assertThat(a.reason()).isEqualTo("UnexpectedAdmissionError");
            assertThat(a.message()).contains("Allocate failed", "GPU is lost, which is unexpected");
            assertThat(a.pod()).startsWith("arc-runners/arc-runner-g5-48xl-workflow-7hq2x-");
        });

        assertThat(decide(PolicyMode.DRY_RUN)).singleElement().satisfies(d -> {
            assertThat(d.mode()).isEqualTo(PolicyMode.DRY_RUN);
            assertThat(d.request().kind()).isEqualTo(ActionKind.CORDON);
        });
        // Dry run: the decision is recorded, nothing is done.
        assertThat(client.nodes().withName(NODE).get().getSpec().getUnschedulable())
                .isNotEqualTo(Boolean.TRUE);

        PolicyDecision on = decide(PolicyMode.ON).get(0);
        assertThat(on.mode()).isEqualTo(PolicyMode.ON);
        assertThat(on.request().reason()).contains("5 pod(s) rejected at admission", "GPU is lost");
        // On: the cordon step of the cordon action, through the cluster actions the application uses.
        var ctor = Class.forName("io.lifeline.connector.outbound.kube.KubernetesClusterActions")
                .getDeclaredConstructor(KubernetesClient.class);
        ctor.setAccessible(true);
        ClusterActions actions = (ClusterActions) ctor.newInstance(client);
        assertThat(actions.cordon(on.request().target()).result()).isEqualTo(ClusterOutcome.Result.PATCHED);
        assertThat(client.nodes().withName(NODE).get().getSpec().getUnschedulable())
                .isTrue();
    }

    /** The rejections captured, applied to a model of the node, and the policy's decision on the last. */
    private List<PolicyDecision> decide(PolicyMode mode) {
        List<Event> rejections = out.of(NODE, EventType.NODE_ADMISSION_FAILED);
        Fleet fleet = fleet(NODE, 8);
        Jobs jobs = new Jobs(fleet, Clock.systemUTC());
        PolicyEngine engine = new PolicyEngine(PolicySettings.allOff()
                .with(PolicyName.ADMISSION_FAILURE_CORDON, new PolicySettings.Entry(mode, Map.of())));
        List<PolicyDecision> decisions = new ArrayList<>();
        for (Event e : rejections.stream()
                .sorted(java.util.Comparator.comparing(Event::time))
                .toList()) {
            decisions = engine.onEvent(e, fleet.change(e).outcome(), jobs, fleet, e.time());
        }
        if (mode == PolicyMode.ON) {
            assertThat(new ActionPlanner(jobs, fleet)
                            .plan(decisions.get(0).request(), Instant.now())
                            .ok())
                    .isTrue();
        }
        return decisions;
    }

    private static Fleet fleet(String node, int gpus) {
        Fleet fleet = new Fleet(Clock.fixed(Instant.parse("2026-09-04T16:00:00Z"), ZoneOffset.UTC));
        Instant t0 = Instant.parse("2026-09-04T00:00:00Z");
        fleet.apply(new Event(
                "r-" + node,
                "test",
                EventType.NODE_REGISTERED,
                node,
                t0,
                new NodeData.Registered("g5", CapacityType.ON_DEMAND, "z", "g5.48xlarge", gpus, null)));
        fleet.apply(new Event("ready-" + node, "test", EventType.NODE_READY, node, t0, new NodeData.Ready()));
        return fleet;
    }

    private static Event sample(String node, String uuid, int index) {
        return new Event(
                "s-" + uuid,
                "test",
                EventType.GPU_SAMPLE,
                node,
                Instant.parse("2026-05-15T00:00:00Z"),
                new GpuData.Sample(uuid, index, "H100", 1.0, 1.0, 1.0, 40.0, 100.0, 0L, 0L, 0L, 0L, null, null, null));
    }

    private List<GpuData.DeviceHealth> health() {
        return out.of(EventType.GPU_DEVICE_HEALTH).stream()
                .map(e -> (GpuData.DeviceHealth) e.data())
                .toList();
    }
}
