package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.inbound.scrape.ScrapeTarget;
import io.lifeline.domain.event.Event;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.Hostile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The Kubernetes watchers over hostile variants of real objects: the PyTorchJob of the fixtures and the Node, Pod,
 * Kubernetes Event and dcgm-exporter EndpointSlice the watchers' own tests use. A variant the client cannot even
 * read as its kind never reaches a watcher (the informer drops it); every other one goes through the watcher's
 * handler as the informer delivers it (added, updated from and to the original, deleted), which never throws and
 * whose events name the object. The EndpointSlice's pod is read from a mock API server, as discovery does.
 */
class KubernetesObjectsFuzzTest {

    private static final String NS = "gpu-operator";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static KubernetesMockServer server;
    private static KubernetesClient client;

    private final Captured out = new Captured();
    private final TrainingPods training = new TrainingPods();
    private final NodeWatcher nodes = new NodeWatcher(out.ctx, List.of("karpenter.sh/nodepool"), "default", null);
    private final PodWatcher podWatcher = new PodWatcher(out.ctx, training, null);
    private final ResourceEventHandler<Pod> pods = podWatcher.handler(PodScheme.PYTORCHJOB);
    private final ResourceEventHandler<Pod> trainJobPods = podWatcher.handler(PodScheme.TRAINJOB);
    private final EventWatcher events = new EventWatcher(out.ctx, training);
    private final PyTorchJobWatcher jobs = new PyTorchJobWatcher(out.ctx, training, null);

    @BeforeContainer
    static void apiServer() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
        server.expect()
                .get()
                .withPath("/api/v1/namespaces/" + NS + "/pods/nvidia-dcgm-exporter-x7k2p")
                .andReturn(
                        200,
                        new PodBuilder()
                                .withNewMetadata()
                                .withName("nvidia-dcgm-exporter-x7k2p")
                                .withNamespace(NS)
                                .withUid("pod-uid-1")
                                .endMetadata()
                                .withNewSpec()
                                .withNodeName("gpu-node-1")
                                .endSpec()
                                .withNewStatus()
                                .withPodIP("10.0.3.17")
                                .endStatus()
                                .build())
                .always();
    }

    @AfterContainer
    static void stopApiServer() {
        client.close();
        server.destroy();
    }

    @Property
    void aNodeIsTranslatedWhateverItSays(@ForAll("nodes") Hostile.Case json) {
        Node seed = read(seedNode(), Node.class);
        Node node = read(json, Node.class);
        if (node == null) {
            return;
        }
        int before = out.all().size();
        nodes.onAdd(node);
        nodes.onUpdate(seed, node);
        nodes.onUpdate(node, seed);
        nodes.onDelete(node, false);
        checked(before);
    }

    @Property
    void aTrainingPodAndItsEventsAreTranslatedWhateverTheySay(
            @ForAll("pods") Hostile.Case json, @ForAll("events") Hostile.Case eventJson) {
        Pod seed = read(seedPod(), Pod.class);
        Pod pod = read(json, Pod.class);
        io.fabric8.kubernetes.api.model.Event event = read(eventJson, io.fabric8.kubernetes.api.model.Event.class);
        int before = out.all().size();
        if (pod != null) {
            training.putJob("team-k/llama-ft", new TrainingPods.Job(4, false, false, true));
            for (ResourceEventHandler<Pod> handler : List.of(pods, trainJobPods)) {
                handler.onAdd(seed);
                handler.onUpdate(seed, pod);
                handler.onAdd(pod);
                handler.onUpdate(pod, seed);
            }
        }
        if (event != null) {
            events.onAdd(event);
        }
        checked(before);
        if (pod != null) {
            pods.onDelete(pod, false);
            trainJobPods.onDelete(pod, false);
        }
    }

    @Property
    void aPyTorchJobIsTranslatedWhateverItSays(@ForAll("pytorchJobs") Hostile.Case json) {
        GenericKubernetesResource seed = read(pytorchJob(), GenericKubernetesResource.class);
        GenericKubernetesResource job = read(json, GenericKubernetesResource.class);
        if (job == null) {
            return;
        }
        int before = out.all().size();
        jobs.onAdd(job);
        jobs.onUpdate(seed, job);
        jobs.onUpdate(job, seed);
        jobs.onDelete(job, false);
        checked(before);
    }

    @Property
    void anEndpointSliceYieldsOnlyTargetsOfItsPodsNode(@ForAll("slices") Hostile.Case json) {
        EndpointSlice slice = read(json, EndpointSlice.class);
        if (slice == null
                || !KubeContext.isNamed(slice)
                || !NS.equals(slice.getMetadata().getNamespace())) {
            return; // the discovery handler reads only named objects of the trusted namespaces
        }
        DcgmEndpointWatcher discovery = new DcgmEndpointWatcher(DISCOVERY, null);
        discovery.start(client, 0);
        List<ScrapeTarget> targets = discovery.targets(slice);
        assertThat(targets).allSatisfy(t -> {
            assertThat(t.node()).isEqualTo("gpu-node-1");
            assertThat(t.url()).startsWith("http://10.0.3.17:");
        });
        Statistics.collect(targets.isEmpty() ? "no target" : "targets");
        Statistics.coverage(c -> c.check("targets").percentage(p -> p > 1));
    }

    /** The events of this try (those after the first {@code before}) name their object and come from the cluster. */
    private void checked(int before) {
        List<Event> made = out.all().subList(before, out.all().size());
        for (Event e : made) {
            assertThat(e.id()).isNotBlank();
            assertThat(e.subject()).isNotBlank();
            assertThat(e.source()).isEqualTo("kubernetes/test");
        }
        Statistics.collect(made.isEmpty() ? "no event" : "events");
        Statistics.coverage(c -> c.check("events").percentage(p -> p > 1));
    }

    /** The object, or null when the client could not read it as one (then no watcher sees it). */
    private static <T> T read(Hostile.Case json, Class<T> type) {
        try {
            T o = JSON.unmarshal(new String(json.bytes(), StandardCharsets.UTF_8), type);
            Statistics.label("read").collect(type.getSimpleName() + (o == null ? " null" : " read"));
            return o;
        } catch (RuntimeException notAnObject) {
            Statistics.label("read").collect(type.getSimpleName() + " not readable");
            return null;
        }
    }

    @Provide
    Arbitrary<Hostile.Case> nodes() {
        return Hostile.any(List.of(seedNode().seed()));
    }

    @Provide
    Arbitrary<Hostile.Case> pods() {
        return Hostile.any(
                List.of(seedPod().seed(), evictedPod().seed(), trainJobPod().seed()));
    }

    @Provide
    Arbitrary<Hostile.Case> events() {
        return Hostile.any(List.of(seed(
                        "event",
                        new EventBuilder()
                                .withNewMetadata()
                                .withName("e1")
                                .withNamespace("team-k")
                                .withUid("event-uid-1")
                                .endMetadata()
                                .withReason("Preempted")
                                .withMessage("Preempted by a higher priority pod")
                                .withLastTimestamp("2026-03-01T10:05:00Z")
                                .withNewInvolvedObject()
                                .withKind("Pod")
                                .withName("echo-worker-0")
                                .withNamespace("team-k")
                                .withUid("pod-uid-0")
                                .endInvolvedObject()
                                .build())
                .seed()));
    }

    @Provide
    Arbitrary<Hostile.Case> pytorchJobs() {
        return Hostile.any(List.of(pytorchJob().seed()));
    }

    @Provide
    Arbitrary<Hostile.Case> slices() {
        return Hostile.any(List.of(seed(
                        "endpointslice",
                        new EndpointSliceBuilder()
                                .withNewMetadata()
                                .withName("nvidia-dcgm-exporter-abcde")
                                .withNamespace(NS)
                                .addToLabels("app.kubernetes.io/name", "dcgm-exporter")
                                .endMetadata()
                                .withAddressType("IPv4")
                                .addNewPort()
                                .withName("metrics")
                                .withPort(9400)
                                .withProtocol("TCP")
                                .endPort()
                                .addToEndpoints(new EndpointBuilder()
                                        .withAddresses("10.0.3.17")
                                        .withNodeName("gpu-node-1")
                                        .withNewConditions()
                                        .withReady(true)
                                        .endConditions()
                                        .withNewTargetRef()
                                        .withKind("Pod")
                                        .withName("nvidia-dcgm-exporter-x7k2p")
                                        .withNamespace(NS)
                                        .withUid("pod-uid-1")
                                        .endTargetRef()
                                        .build())
                                .build())
                .seed()));
    }

    private static Hostile.Case seedNode() {
        return seed(
                "node",
                new NodeBuilder()
                        .withNewMetadata()
                        .withName("gpu-1")
                        .withUid("node-uid-1")
                        .withResourceVersion("41")
                        .withCreationTimestamp("2026-03-01T09:00:00Z")
                        .addToLabels("karpenter.sh/capacity-type", "spot")
                        .addToLabels("karpenter.sh/nodepool", "gpu-spot")
                        .addToLabels("topology.kubernetes.io/zone", "us-east-1a")
                        .addToLabels("node.kubernetes.io/instance-type", "p4d.24xlarge")
                        .endMetadata()
                        .withNewSpec()
                        .withProviderID("aws:///us-east-1a/i-0abc123")
                        .withUnschedulable(true)
                        .addNewTaint()
                        .withKey("aws-node-termination-handler/spot-itn")
                        .withValue("i-0abc123")
                        .withEffect("NoSchedule")
                        .withTimeAdded("2026-03-01T10:00:00Z")
                        .endTaint()
                        .endSpec()
                        .withNewStatus()
                        .addToCapacity("nvidia.com/gpu", new Quantity("8"))
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("False")
                        .withReason("KubeletNotReady")
                        .withMessage("PLEG is not healthy")
                        .withLastTransitionTime("2026-03-01T10:01:00Z")
                        .endCondition()
                        .endStatus()
                        .build());
    }

    private static Hostile.Case seedPod() {
        return seed(
                "pod",
                new PodBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0")
                        .withNamespace("team-k")
                        .withUid("pod-uid-0")
                        .withResourceVersion("7")
                        .addToLabels(PodWatcher.JOB_LABEL, "elastic-example-echo")
                        .addToLabels(PodWatcher.REPLICA_TYPE, "worker")
                        .addToLabels(PodWatcher.REPLICA_INDEX, "0")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-node-0")
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .addNewContainerStatus()
                        .withName("pytorch")
                        .withRestartCount(1)
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(137)
                        .withReason("OOMKilled")
                        .withFinishedAt("2026-03-01T10:02:00Z")
                        .endTerminated()
                        .endLastState()
                        .endContainerStatus()
                        .endStatus()
                        .build());
    }

    /** A failed trainer node of the TrainJob team-k/llama-ft, labelled as JobSet and the Job controller label it. */
    private static Hostile.Case trainJobPod() {
        return seed(
                "trainjob pod",
                new PodBuilder()
                        .withNewMetadata()
                        .withName("llama-ft-node-0-1-q8z4m")
                        .withNamespace("team-k")
                        .withUid("pod-uid-2")
                        .withResourceVersion("11")
                        .addToLabels(PodScheme.TrainJobPods.JOBSET_NAME, "llama-ft")
                        .addToLabels(PodScheme.TrainJobPods.REPLICATED_JOB, "node")
                        .addToLabels("jobset.sigs.k8s.io/job-index", "0")
                        .addToLabels(PodScheme.TrainJobPods.COMPLETION_INDEX, "1")
                        .addToAnnotations(PodScheme.TrainJobPods.COMPLETION_INDEX, "1")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-node-1")
                        .withHostname("llama-ft-node-0-1")
                        .withSubdomain("llama-ft")
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .addNewContainerStatus()
                        .withName("node")
                        .withRestartCount(1)
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(1)
                        .withReason("Error")
                        .withFinishedAt("2026-03-01T10:04:00Z")
                        .endTerminated()
                        .endLastState()
                        .endContainerStatus()
                        .endStatus()
                        .build());
    }

    private static Hostile.Case evictedPod() {
        return seed(
                "evicted pod",
                new PodBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-1")
                        .withNamespace("team-k")
                        .withUid("pod-uid-1")
                        .withResourceVersion("9")
                        .addToLabels(PodWatcher.JOB_LABEL, "elastic-example-echo")
                        .addToLabels(PodWatcher.REPLICA_INDEX, "1")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-node-1")
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Failed")
                        .addNewCondition()
                        .withType("DisruptionTarget")
                        .withStatus("True")
                        .withReason("PreemptionByScheduler")
                        .withLastTransitionTime("2026-03-01T10:03:00Z")
                        .endCondition()
                        .endStatus()
                        .build());
    }

    private static Hostile.Case pytorchJob() {
        try {
            Object yaml = new ObjectMapper(new YAMLFactory())
                    .readValue(Fixtures.bytes("k8s/pytorchjob_elastic_echo.yaml"), Object.class);
            return Hostile.mutate(
                    new Hostile.Seed("k8s/pytorchjob_elastic_echo.yaml", new ObjectMapper().writeValueAsBytes(yaml)),
                    List.of(),
                    List.of());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Hostile.Case seed(String name, Object object) {
        return Hostile.mutate(Hostile.Seed.of(name, JSON.asJson(object)), List.of(), List.of());
    }

    private static final ScrapeConfig.Kubernetes DISCOVERY = new ScrapeConfig.Kubernetes() {
        @Override
        public boolean enabled() {
            return true;
        }

        @Override
        public String labelSelector() {
            return "app.kubernetes.io/name=dcgm-exporter";
        }

        @Override
        public List<String> namespaces() {
            return List.of(NS);
        }

        @Override
        public Optional<String> namespace() {
            return Optional.empty();
        }

        @Override
        public String resource() {
            return "endpointslices";
        }

        @Override
        public String portName() {
            return "metrics";
        }

        @Override
        public String scheme() {
            return "http";
        }

        @Override
        public String path() {
            return "/metrics";
        }
    };
}
