package io.lifeline.connector.inbound.kube;

import static io.lifeline.testing.LifelineApi.metric;
import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.connector.inbound.scrape.FakeExporter;
import io.lifeline.testing.Fixtures;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes connector inside the application, against the fabric8 mock API server in CRUD mode: objects are
 * created, changed and deleted there, and the outcome is read from Lifeline's event log. The PyTorchJob and Kueue
 * Workload CRDs are installed in the mock, the Volcano one is not. This class gets its own application start (the
 * mock server is per class); it also turns on the connector and dcgm-exporter discovery for that start only.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = KubernetesConnectorTest.InstallCrds.class)
@QuarkusTestResource(value = KubernetesConnectorTest.ConnectorOn.class, restrictToAnnotatedClass = true)
class KubernetesConnectorTest {

    @KubernetesTestServer
    KubernetesServer server;

    /** Installs the CRDs that detection looks for (not Volcano's). */
    public static class InstallCrds implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer s) {
            s.getClient()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(crd("kubeflow.org", "pytorchjobs", "PyTorchJob", "v1"))
                    .create();
            s.getClient()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(crd("kueue.x-k8s.io", "workloads", "Workload", "v1beta1"))
                    .create();
        }

        private static CustomResourceDefinition crd(String group, String plural, String kind, String version) {
            return new CustomResourceDefinitionBuilder()
                    .withNewMetadata()
                    .withName(plural + "." + group)
                    .endMetadata()
                    .withNewSpec()
                    .withGroup(group)
                    .withScope("Namespaced")
                    .withNewNames()
                    .withPlural(plural)
                    .withKind(kind)
                    .endNames()
                    .addNewVersion()
                    .withName(version)
                    .withServed(true)
                    .withStorage(true)
                    .endVersion()
                    .endSpec()
                    .build();
        }
    }

    /** The connector and dcgm-exporter discovery on, with a fast resync and CRD recheck. */
    public static class ConnectorOn implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of(
                    "lifeline.connectors.kubernetes.enabled",
                    "true",
                    "lifeline.connectors.kubernetes.cluster",
                    "mock",
                    "lifeline.connectors.kubernetes.resync",
                    "1s",
                    "lifeline.connectors.kubernetes.crd-recheck",
                    "2s",
                    "lifeline.connectors.dcgm.kubernetes.enabled",
                    "true",
                    "lifeline.connectors.dcgm.kubernetes.namespaces",
                    "gpu-operator",
                    "lifeline.connectors.dcgm.max-body-bytes",
                    "262144",
                    "lifeline.connectors.dcgm.interval",
                    "1s",
                    "lifeline.connectors.dcgm.jitter",
                    "100ms");
        }

        @Override
        public void stop() {
            // nothing to stop
        }
    }

    private KubernetesClient client() {
        return server.getClient();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }

    private static void awaitKindsWatched() {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> api().get("/api/v1/connectors/kubernetes")
                        .then()
                        .statusCode(200)
                        .body("enabled", equalTo(true))
                        .body("kinds.find { it.kind == 'nodes' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'pods' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'trainjob-pods' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'events' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'pytorchjobs' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'kueue-workloads' }.state", equalTo("watching"))
                        .body("kinds.find { it.kind == 'dcgm-exporter-endpoints' }.state", equalTo("watching")));
    }

    @Test
    void aMissingCrdTurnsItsKindOff() {
        awaitKindsWatched();
        api().get("/api/v1/connectors/kubernetes")
                .then()
                .statusCode(200)
                .body("kinds.find { it.kind == 'volcano-jobs' }.state", equalTo("crd-missing"));
    }

    @Test
    void aNodesLifeIsStoredAndItsProviderIdResolvesCloudNotices() throws InterruptedException {
        awaitKindsWatched();
        String name = unique("k8s-node");
        String instance = unique("i-k8s");
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("karpenter.sh/capacity-type", "spot")
                .addToLabels("karpenter.sh/nodepool", "gpu-spot")
                .addToLabels("topology.kubernetes.io/zone", "us-east-1a")
                .endMetadata()
                .withNewSpec()
                .withProviderID("aws:///us-east-1a/" + instance)
                .endSpec()
                .withNewStatus()
                .addToCapacity("nvidia.com/gpu", new Quantity("8"))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime("2026-03-01T10:00:00Z")
                .endCondition()
                .endStatus()
                .build();
        client().nodes().resource(node).create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(name, "node.ready").size() == 1);
        Map<String, Object> registered = stored(name, "node.registered").get(0);
        assertThat(data(registered))
                .containsEntry("pool", "gpu-spot")
                .containsEntry("capacityType", "spot")
                .containsEntry("gpuCount", 8)
                .containsEntry("providerId", "aws:///us-east-1a/" + instance);
        assertThat(registered.get("source")).isEqualTo("kubernetes/mock");

        // The node agent's IMDS document names the instance; the Node informer told Lifeline which node it is.
        api().contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"))
                .post("/api/v1/connectors/aws/imds/" + instance + "/spot/instance-action")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        assertThat(stored(name, "node.interruption_notice")).hasSize(1);

        node = client().nodes().withName(name).get();
        node.getSpec().setUnschedulable(true);
        node.getSpec()
                .getTaints()
                .add(new TaintBuilder()
                        .withKey("aws-node-termination-handler/spot-itn")
                        .withValue("spot-itn-7f3a")
                        .withEffect("NoSchedule")
                        .build());
        client().nodes().resource(node).update();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(name, "node.interruption_notice").size() == 2);
        assertThat(stored(name, "node.cordoned")).hasSize(1);

        int before = stored(name, null).size();
        Thread.sleep(3000); // three resync periods
        assertThat(stored(name, null)).hasSize(before);

        client().nodes().withName(name).delete();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(name, "node.terminated").size() == 1);
        assertThat(metric("lifeline_connector_events_total", Map.of("connector", "kubernetes-node")))
                .isGreaterThanOrEqualTo(6);
        assertThat(metric("lifeline_connector_received_total", Map.of("connector", "kubernetes-node")))
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    void theElasticEchoJobItsPodsEventsAndWorkloadAreStored() throws Exception {
        awaitKindsWatched();
        String ns = unique("team");
        String job = ns + "/elastic-example-echo";
        GenericKubernetesResource pytorchJob;
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            pytorchJob = client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        pytorchJob.getMetadata().setNamespace(ns);
        pytorchJob = client().genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(ns)
                .resource(pytorchJob)
                .create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(job, "job.submitted").size() == 1);
        assertThat(data(stored(job, "job.submitted").get(0)).get("elastic"))
                .isEqualTo(Map.of(
                        "minNodes", 1, "maxNodes", 2, "procsPerNode", 1, "maxRestarts", 100, "rdzvBackend", "c10d"));

        Pod worker = client().pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("elastic-example-echo-worker-0")
                        .withNamespace(ns)
                        .addToLabels(PodWatcher.JOB_LABEL, "elastic-example-echo")
                        .addToLabels(PodWatcher.REPLICA_TYPE, "worker")
                        .addToLabels(PodWatcher.REPLICA_INDEX, "0")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-a")
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
        worker.getStatus()
                .setContainerStatuses(List.of(new ContainerStatusBuilder()
                        .withName("pytorch")
                        .withRestartCount(1)
                        .withNewLastState()
                        .withNewTerminated()
                        .withExitCode(137)
                        .withReason("OOMKilled")
                        .withFinishedAt("2026-03-01T10:30:00Z")
                        .endTerminated()
                        .endLastState()
                        .build()));
        client().pods().resource(worker).updateStatus();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(job, "trainer.worker_failed").size() == 1);
        assertThat(data(stored(job, "trainer.worker_failed").get(0)))
                .containsEntry("rank", 0)
                .containsEntry("exitCode", 137)
                .containsEntry("node", "gpu-a");

        client().v1()
                .events()
                .inNamespace(ns)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("echo-0.evicted")
                        .withNamespace(ns)
                        .endMetadata()
                        .withReason("Evicted")
                        .withType("Warning")
                        .withMessage("The node was low on resource: memory.")
                        .withLastTimestamp("2026-03-01T10:45:00Z")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName("elastic-example-echo-worker-0")
                        .withNamespace(ns)
                        .withUid(worker.getMetadata().getUid())
                        .endInvolvedObject()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(job, "pod.evicted").size() == 1);

        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder()
                .withName("pytorchjob-elastic-example-echo-1a2b3")
                .withNamespace(ns)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("elastic-example-echo")
                        .withUid(pytorchJob.getMetadata().getUid())
                        .withController(true)
                        .build())
                .build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-queue"));
        wl.setAdditionalProperty(
                "status",
                Map.of(
                        "admission",
                        Map.of("clusterQueue", "gpu-cq"),
                        "conditions",
                        List.of(Map.of(
                                "type",
                                "Admitted",
                                "status",
                                "True",
                                "reason",
                                "Admitted",
                                "lastTransitionTime",
                                "2026-03-01T10:01:00Z"))));
        client().genericKubernetesResources(KueueWorkloadWatcher.CONTEXT)
                .inNamespace(ns)
                .resource(wl)
                .create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(job, "workload.admitted").size() == 1);
        assertThat(data(stored(job, "workload.admitted").get(0))).containsEntry("queue", "gpu-cq");

        pytorchJob = client().genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(ns)
                .withName("elastic-example-echo")
                .get();
        pytorchJob.setAdditionalProperty(
                "status",
                Map.of(
                        "conditions",
                        List.of(Map.of(
                                "type",
                                "Succeeded",
                                "status",
                                "True",
                                "reason",
                                "PyTorchJobSucceeded",
                                "lastTransitionTime",
                                "2026-03-01T11:00:00Z"))));
        client().genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(ns)
                .resource(pytorchJob)
                .update();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> stored(job, "job.finished").size() == 1);
        assertThat(data(stored(job, "job.finished").get(0))).containsEntry("outcome", "succeeded");
        assertThat(stored(job, "job.finished").get(0).get("time"))
                .isEqualTo(Instant.parse("2026-03-01T11:00:00Z").toString());
    }

    @Test
    void dcgmExporterEndpointsAreDiscoveredFromEndpointSlices() {
        awaitKindsWatched();
        String node = unique("dcgm-k8s-node");
        try (FakeExporter exporter =
                new FakeExporter().serve(Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom"))) {
            int port = Integer.parseInt(exporter.url("").replaceAll(".*:(\\d+)$", "$1"));
            String pod = exporterPod("gpu-operator", node);
            // The slice's own nodeName is not what counts: the pod's node is.
            String sliceName = slice("gpu-operator", port, pod, unique("not-the-node"));
            String url = "http://127.0.0.1:" + port + "/metrics";
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> api().get("/api/v1/connectors/dcgm/endpoints")
                            .then()
                            .statusCode(200)
                            .body("find { it.url == '" + url + "' }.node", equalTo(node))
                            .body("find { it.url == '" + url + "' }.origin", equalTo("kubernetes"))
                            .body("find { it.url == '" + url + "' }.lastSuccess", notNullValue()));
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(gpusOf(node)).isNotEmpty());

            client().discovery()
                    .v1()
                    .endpointSlices()
                    .inNamespace("gpu-operator")
                    .withName(sliceName)
                    .delete();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(api().get("/api/v1/connectors/dcgm/endpoints")
                                    .then()
                                    .statusCode(200)
                                    .extract()
                                    .jsonPath()
                                    .getList("url"))
                            .doesNotContain(url));
        }
    }

    @Test
    void hostileEndpointSlicesChangeNoGpuState() throws Exception {
        awaitKindsWatched();
        byte[] metrics = Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom");
        String victim = unique("dcgm-victim");
        String podNode = unique("dcgm-pod-node");
        try (FakeExporter real = new FakeExporter().serve(metrics);
                Hostile redirect = Hostile.redirectingTo(real.url("/metrics"));
                Hostile huge = Hostile.huge(metrics)) {
            int realPort = port(real.url(""));
            // 1. Another namespace, with a pod there on the victim's node: not read at all.
            String teamNs = unique("team-x");
            slice(teamNs, realPort, exporterPod(teamNs, victim), victim);
            // 2. A trusted namespace, but the target redirects to a real exporter: the redirect is not followed.
            String redirectNode = unique("dcgm-redirect-node");
            slice("gpu-operator", redirect.port(), exporterPod("gpu-operator", redirectNode), redirectNode);
            // 3. A body far over max-body-bytes (its head is a valid scrape): abandoned, counted, not parsed.
            String hugeNode = unique("dcgm-huge-node");
            double oversizedBefore =
                    metric("lifeline_connector_dcgm_oversized_bodies_total", Map.of("limit", "max-body-bytes"));
            slice("gpu-operator", huge.port(), exporterPod("gpu-operator", hugeNode), hugeNode);
            // 4. The slice names the victim, the pod runs elsewhere: the pod's node is the subject.
            try (FakeExporter lying = new FakeExporter().serve(metrics);
                    FakeExporter orphan = new FakeExporter().serve(metrics)) {
                int lyingPort = port(lying.url(""));
                slice("gpu-operator", lyingPort, exporterPod("gpu-operator", podNode), victim);
                // 5. A slice with no pod behind it: nothing to take the node from.
                slice("gpu-operator", port(orphan.url("")), null, victim);

                String lyingUrl = "http://127.0.0.1:" + lyingPort + "/metrics";
                String redirectUrl = "http://127.0.0.1:" + redirect.port() + "/metrics";
                String hugeUrl = "http://127.0.0.1:" + huge.port() + "/metrics";
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    io.restassured.path.json.JsonPath endpoints = api().get("/api/v1/connectors/dcgm/endpoints")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath();
                    assertThat(endpoints.getString("find { it.url == '" + lyingUrl + "' }.node"))
                            .isEqualTo(podNode);
                    assertThat(endpoints.getString("find { it.url == '" + lyingUrl + "' }.lastSuccess"))
                            .isNotNull();
                    assertThat(endpoints.getString("find { it.url == '" + redirectUrl + "' }.lastError"))
                            .isEqualTo("HTTP 302");
                    assertThat(endpoints.getString("find { it.url == '" + hugeUrl + "' }.lastError"))
                            .contains("larger than");
                    assertThat(endpoints.getList("findAll { it.node == '" + victim + "' }.url"))
                            .isEmpty();
                });
                assertThat(gpusOf(podNode)).isNotEmpty();
                assertThat(metric("lifeline_connector_dcgm_oversized_bodies_total", Map.of("limit", "max-body-bytes")))
                        .isGreaterThan(oversizedBefore);
                assertThat(huge.sent()).isLessThan(metrics.length + 8L * 1024 * 1024);
                for (String n : List.of(victim, redirectNode, hugeNode)) {
                    assertThat(gpusOf(n)).as(n).isEmpty();
                    assertThat(stored(n, null)).as(n).isEmpty();
                }
            }
        }
    }

    private static int port(String url) {
        return Integer.parseInt(url.replaceAll(".*:(\\d+)/?$", "$1"));
    }

    private static List<Object> gpusOf(String node) {
        return api().queryParam("node", node)
                .get("/api/v1/gpus")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    /** A running dcgm-exporter pod at 127.0.0.1 on {@code node}; returns its name. */
    private String exporterPod(String ns, String node) {
        String name = unique("dcgm-exporter-pod");
        Pod pod = client().pods()
                .inNamespace(ns)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .addToLabels("app.kubernetes.io/name", "dcgm-exporter")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .endSpec()
                        .build())
                .create();
        pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                .withPhase("Running")
                .withPodIP("127.0.0.1")
                .addNewPodIP("127.0.0.1")
                .build());
        client().pods().inNamespace(ns).resource(pod).updateStatus();
        return name;
    }

    /** An EndpointSlice of the dcgm-exporter Service with one ready endpoint; returns its name. */
    private String slice(String ns, int port, String pod, String nodeName) {
        String name = unique("dcgm-exporter");
        var endpoint = new io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder()
                .withAddresses("127.0.0.1")
                .withNodeName(nodeName)
                .withNewConditions()
                .withReady(true)
                .endConditions();
        if (pod != null) {
            endpoint.withNewTargetRef()
                    .withKind("Pod")
                    .withName(pod)
                    .withNamespace(ns)
                    .endTargetRef();
        }
        client().discovery()
                .v1()
                .endpointSlices()
                .inNamespace(ns)
                .resource(new EndpointSliceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .addToLabels("app.kubernetes.io/name", "dcgm-exporter")
                        .addToLabels("kubernetes.io/service-name", "nvidia-dcgm-exporter")
                        .endMetadata()
                        .withAddressType("IPv4")
                        .addNewPort()
                        .withName("metrics")
                        .withPort(port)
                        .withProtocol("TCP")
                        .endPort()
                        .addToEndpoints(endpoint.build())
                        .build())
                .create();
        return name;
    }

    /** A real HTTP server that misbehaves on {@code /metrics}: it redirects to a real exporter, or streams a huge body. */
    private static final class Hostile implements AutoCloseable {
        private final com.sun.net.httpserver.HttpServer server;
        private final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();

        private Hostile(com.sun.net.httpserver.HttpHandler metrics) throws java.io.IOException {
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/metrics", metrics);
            server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            server.start();
        }

        static Hostile redirectingTo(String target) throws java.io.IOException {
            return new Hostile(ex -> {
                ex.getResponseHeaders().set("Location", target);
                ex.sendResponseHeaders(302, -1);
                ex.close();
            });
        }

        static Hostile huge(byte[] head) throws java.io.IOException {
            java.util.concurrent.atomic.AtomicReference<Hostile> self =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Hostile h = new Hostile(ex -> {
                ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
                ex.sendResponseHeaders(200, 0);
                byte[] filler = ("# " + "x".repeat(1020) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                try (java.io.OutputStream out = ex.getResponseBody()) {
                    out.write(head);
                    self.get().sent.addAndGet(head.length);
                    for (int i = 0; i < 64 * 1024; i++) { // up to 64 MB, unless the reader hangs up first
                        out.write(filler);
                        self.get().sent.addAndGet(filler.length);
                    }
                } catch (java.io.IOException hungUp) {
                    // the reader abandoned the body: what this server is here to see
                }
            });
            self.set(h);
            return h;
        }

        int port() {
            return server.getAddress().getPort();
        }

        long sent() {
            return sent.get();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
