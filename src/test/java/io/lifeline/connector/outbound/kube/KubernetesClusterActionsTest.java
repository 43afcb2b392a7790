package io.lifeline.connector.outbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.lifeline.action.port.ClusterActions.PodRef;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.connector.outbound.kube.WorkloadOperator.JobCost;
import io.lifeline.testing.Fixtures;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes actions against the fabric8 mock API server in CRUD mode. The mock has no Eviction subresource,
 * so evictions are answered by expectations (which take priority over CRUD): 201 (the test then deletes the pod,
 * as the API server would) or 429 (a PodDisruptionBudget refusal).
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesClusterActionsTest {

    KubernetesMockServer server;
    KubernetesClient client;
    private KubernetesClusterActions actions;

    @BeforeEach
    void setUp() {
        actions = new KubernetesClusterActions(client);
    }

    @AfterEach
    void tearDown() {
        actions.close();
    }

    private void node(String name, Boolean unschedulable) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withUnschedulable(unschedulable)
                        .endSpec()
                        .build())
                .create();
    }

    private void pod(String ns, String name, String job, String node, String phase) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus();
        if (job != null) {
            b.editMetadata().addToLabels(PodOperator.JOB_LABEL, job).endMetadata();
        }
        client.pods().resource(b.build()).create();
    }

    private GenericKubernetesResource pytorchJob(String ns) throws Exception {
        GenericKubernetesResource job;
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            job = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        job.getMetadata().setNamespace(ns);
        return client.genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace(ns)
                .resource(job)
                .create();
    }

    private GenericKubernetesResource getJob(String ns, String name) {
        return client.genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace(ns)
                .withName(name)
                .get();
    }

    @SuppressWarnings("unchecked")
    private static Object at(GenericKubernetesResource r, String... path) {
        Object v = r.getAdditionalProperties();
        for (String p : path) {
            v = ((Map<String, Object>) v).get(p);
        }
        return v;
    }

    @Test
    void replacingAJobsPodsOnANodeDeletesOnlyThoseAndASecondRunFindsThemGone() {
        pod("ml", "llm-worker-0", "llm", "gpu-1", "Running");
        pod("ml", "llm-worker-1", "llm", "gpu-2", "Running");
        pod("ml", "llm-worker-2", "llm", "gpu-1", "Failed");
        pod("ml", "other-worker-0", "other", "gpu-1", "Running");
        pod("ml", "llm-done", "llm", "gpu-1", "Succeeded");

        List<PodRef> onNode = actions.jobPodsOn("ml/llm", "gpu-1");
        // The failed pod is one to replace; the one that succeeded is not, nor another job's.
        assertThat(onNode).extracting(PodRef::name).containsExactlyInAnyOrder("llm-worker-0", "llm-worker-2");
        assertThat(onNode).allSatisfy(r -> assertThat(r.job()).isEqualTo("ml/llm"));
        for (PodRef r : onNode) {
            assertThat(actions.deletePod(r).result()).isEqualTo(Result.DELETED);
        }
        assertThat(client.pods().inNamespace("ml").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("llm-worker-1", "other-worker-0", "llm-done");

        // Idempotent: the same pods again are gone already, and the node has none of the job's left.
        for (PodRef r : onNode) {
            assertThat(actions.deletePod(r).result()).isEqualTo(Result.NOT_FOUND);
        }
        assertThat(actions.jobPodsOn("ml/llm", "gpu-1")).isEmpty();
        assertThat(new NoClusterActions().deletePod(onNode.get(0)).result()).isEqualTo(Result.FAILED);
        assertThat(new NoClusterActions().jobPodsOn("ml/llm", "gpu-1")).isEmpty();
    }

    @Test
    void cordonPatchesOnceAndUncordonUndoesIt() {
        node("gpu-1", null);
        assertThat(actions.cordon("gpu-1").result()).isEqualTo(Result.PATCHED);
        assertThat(client.nodes().withName("gpu-1").get().getSpec().getUnschedulable())
                .isTrue();
        assertThat(actions.cordon("gpu-1").result()).isEqualTo(Result.NOOP);
        assertThat(actions.uncordon("gpu-1").result()).isEqualTo(Result.PATCHED);
        assertThat(client.nodes().withName("gpu-1").get().getSpec().getUnschedulable())
                .isNotEqualTo(Boolean.TRUE);
        assertThat(actions.uncordon("gpu-1").result()).isEqualTo(Result.NOOP);
        assertThat(actions.cordon("no-such-node").result()).isEqualTo(Result.NOT_FOUND);
    }

    @Test
    void trainingPodsOnANodeAreThoseOfTrainingJobsStillRunning() {
        pod("team", "echo-worker-0", "echo", "gpu-2", "Running");
        pod("team", "echo-worker-1", "echo", "gpu-3", "Running");
        pod("team", "sidecar", null, "gpu-2", "Running");
        pod("other", "old-worker-0", "old", "gpu-2", "Succeeded");
        assertThat(actions.trainingPodsOn("gpu-2")).containsExactly(new PodRef("team", "echo-worker-0", "team/echo"));
        assertThat(actions.trainingPodsOn("gpu-9")).isEmpty();
    }

    @Test
    void anApiServerUnavailableIsRetryLaterAndAForbiddenCallFails() {
        node("gpu-5", null);
        // The client's own retries off, so that each call below is one answer of the server.
        try (KubernetesClient once = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build()) {
            KubernetesClusterActions direct = new KubernetesClusterActions(once);
            server.expect()
                    .get()
                    .withPath("/api/v1/nodes/gpu-5")
                    .andReturn(
                            503,
                            Map.of(
                                    "kind",
                                    "Status",
                                    "status",
                                    "Failure",
                                    "code",
                                    503,
                                    "message",
                                    "the server is restarting"))
                    .once();
            ClusterOutcome down = direct.cordon("gpu-5");
            assertThat(down.result()).as(down.detail()).isEqualTo(Result.RETRY_LATER);
            assertThat(down.detail())
                    .isEqualTo("cordon node gpu-5: API server unavailable (HTTP 503): " + "the server is restarting");
            server.expect()
                    .get()
                    .withPath("/api/v1/nodes/gpu-5")
                    .andReturn(
                            403,
                            Map.of("kind", "Status", "status", "Failure", "code", 403, "message", "nodes is forbidden"))
                    .once();
            ClusterOutcome forbidden = direct.cordon("gpu-5");
            assertThat(forbidden.result()).isEqualTo(Result.FAILED);
            assertThat(forbidden.detail()).contains("forbidden (check Lifeline's RBAC)");
            assertThat(direct.cordon("gpu-5").result())
                    .as("the server answers again")
                    .isEqualTo(Result.PATCHED);
            direct.close();
        }
    }

    @Test
    void evictionAcceptedIsEvicted() {
        pod("team", "echo-worker-0", "echo", "gpu-2", "Running");
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/team/pods/echo-worker-0/eviction")
                .andReturn(201, Map.of("kind", "Status", "apiVersion", "v1", "status", "Success"))
                .once();
        ClusterOutcome o = actions.evict(new PodRef("team", "echo-worker-0", "team/echo"), false);
        assertThat(o.result()).as(o.detail()).isEqualTo(Result.EVICTED);
        // What the API server does after accepting (the mock does not): the pod goes.
        client.pods().inNamespace("team").withName("echo-worker-0").delete();
        assertThat(actions.trainingPodsOn("gpu-2")).isEmpty();
        assertThat(client.pods().inNamespace("team").withName("echo-worker-0").get())
                .isNull();
    }

    @Test
    void oneEvictionCallIsOneAttemptAndA429IsRetryLater() {
        pod("team", "echo-worker-1", "echo", "gpu-3", "Running");
        String path = "/api/v1/namespaces/team/pods/echo-worker-1/eviction";
        server.expect()
                .post()
                .withPath(path)
                .andReturn(
                        429,
                        Map.of(
                                "kind",
                                "Status",
                                "apiVersion",
                                "v1",
                                "status",
                                "Failure",
                                "reason",
                                "TooManyRequests",
                                "code",
                                429,
                                "message",
                                "Cannot evict pod as it would violate the pod's disruption budget."))
                .once();
        // Were the client to retry on its own, it would get this 201 within the same call.
        server.expect()
                .post()
                .withPath(path)
                .andReturn(201, Map.of("kind", "Status", "status", "Success"))
                .once();
        ClusterOutcome o = actions.evict(new PodRef("team", "echo-worker-1", "team/echo"), false);
        assertThat(o.result()).isEqualTo(Result.RETRY_LATER);
        assertThat(o.detail()).contains("429");
        assertThat(client.pods().inNamespace("team").withName("echo-worker-1").get())
                .isNotNull();
        assertThat(actions.evict(new PodRef("team", "echo-worker-1", "team/echo"), false)
                        .result())
                .isEqualTo(Result.EVICTED);
    }

    @Test
    void aRefusedEvictionDeletesThePodWhenAllowed() {
        pod("team", "echo-worker-2", "echo", "gpu-4", "Running");
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/team/pods/echo-worker-2/eviction")
                .andReturn(
                        429, Map.of("kind", "Status", "status", "Failure", "code", 429, "message", "disruption budget"))
                .once();
        ClusterOutcome o = actions.evict(new PodRef("team", "echo-worker-2", "team/echo"), true);
        assertThat(o.result()).isEqualTo(Result.DELETED);
        assertThat(client.pods().inNamespace("team").withName("echo-worker-2").get())
                .isNull();
    }

    @Test
    void evictingAPodThatIsGoneIsNotFound() {
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/team/pods/gone/eviction")
                .andReturn(404, Map.of("kind", "Status", "status", "Failure", "code", 404, "reason", "NotFound"))
                .once();
        assertThat(actions.evict(new PodRef("team", "gone", "team/echo"), false).result())
                .isEqualTo(Result.NOT_FOUND);
    }

    @Test
    void workersAreScaledWithinTheElasticBoundsOnly() throws Exception {
        pytorchJob("ml");
        // The fixture's elasticPolicy: minReplicas 1, maxReplicas 2; Worker replicas 2.
        assertThat(actions.scaleWorkers("ml/elastic-example-echo", 3).result()).isEqualTo(Result.FAILED);
        assertThat(actions.scaleWorkers("ml/elastic-example-echo", 0).detail()).contains("1..2");
        assertThat(actions.scaleWorkers("ml/elastic-example-echo", 2).result()).isEqualTo(Result.NOOP);
        assertThat(actions.scaleWorkers("ml/elastic-example-echo", 1).result()).isEqualTo(Result.PATCHED);
        assertThat(at(getJob("ml", "elastic-example-echo"), "spec", "pytorchReplicaSpecs", "Worker", "replicas"))
                .isEqualTo(1);
        assertThat(actions.scaleWorkers("ml/missing", 1).result()).isEqualTo(Result.NOT_FOUND);
        assertThat(actions.scaleWorkers("not-a-job", 1).result()).isEqualTo(Result.FAILED);
    }

    @Test
    void suspendSetsRunPolicySuspendOnce() throws Exception {
        pytorchJob("ml2");
        String job = "ml2/elastic-example-echo";
        assertThat(actions.suspend(job, false).result()).isEqualTo(Result.NOOP);
        assertThat(actions.suspend(job, true).result()).isEqualTo(Result.PATCHED);
        assertThat(at(getJob("ml2", "elastic-example-echo"), "spec", "runPolicy", "suspend"))
                .isEqualTo(true);
        assertThat(actions.suspend(job, true).result()).isEqualTo(Result.NOOP);
        assertThat(actions.suspend(job, false).result()).isEqualTo(Result.PATCHED);
        assertThat(at(getJob("ml2", "elastic-example-echo"), "spec", "runPolicy", "suspend"))
                .isEqualTo(false);
    }

    @Test
    void restoreAnnotationNamesTheCheckpointAndItsUri() throws Exception {
        pytorchJob("ml3");
        String job = "ml3/elastic-example-echo";
        assertThat(actions.annotateRestore(job, "ckpt-00042", "s3://ckpt/echo/step_42")
                        .result())
                .isEqualTo(Result.PATCHED);
        Map<String, String> a =
                getJob("ml3", "elastic-example-echo").getMetadata().getAnnotations();
        assertThat(a)
                .containsEntry(PyTorchJobOperator.RESTORE_FROM, "ckpt-00042")
                .containsEntry(PyTorchJobOperator.RESTORE_URI, "s3://ckpt/echo/step_42");
        assertThat(actions.annotateRestore(job, "ckpt-00042", "s3://ckpt/echo/step_42")
                        .result())
                .isEqualTo(Result.NOOP);
        assertThat(actions.annotateRestore(job, "ckpt-00043", null).result()).isEqualTo(Result.PATCHED);
        assertThat(getJob("ml3", "elastic-example-echo").getMetadata().getAnnotations())
                .containsEntry(PyTorchJobOperator.RESTORE_FROM, "ckpt-00043")
                .doesNotContainKey(PyTorchJobOperator.RESTORE_URI);
    }

    @Test
    void workloadsGetTheirJobsCostAndAreRewrittenOnlyWhenItMoved() {
        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder()
                .withName("pytorchjob-echo-1a2b3")
                .withNamespace("team")
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("echo")
                        .withUid("u-1")
                        .withController(true)
                        .build())
                .build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-queue"));
        client.genericKubernetesResources(WorkloadOperator.CONTEXT)
                .inNamespace("team")
                .resource(wl)
                .create();
        WorkloadOperator workloads = new WorkloadOperator(client);
        AtomicReference<Set<String>> asked = new AtomicReference<>();
        Map<String, JobCost> costs = new HashMap<>(Map.of("team/echo", new JobCost(1800, 32.0)));

        assertThat(workloads.publish(jobs -> {
                    asked.set(Set.copyOf(jobs));
                    return costs;
                }))
                .isEqualTo(1);
        assertThat(asked.get()).containsExactly("team/echo");
        Map<String, String> a = client.genericKubernetesResources(WorkloadOperator.CONTEXT)
                .inNamespace("team")
                .withName("pytorchjob-echo-1a2b3")
                .get()
                .getMetadata()
                .getAnnotations();
        assertThat(a).containsEntry(WorkloadOperator.AGE, "1800").containsEntry(WorkloadOperator.AT_RISK, "32.00");

        costs.put("team/echo", new JobCost(1860, 33.1));
        assertThat(workloads.publish(jobs -> costs)).isZero();
        costs.put("team/echo", new JobCost(40, 0.7));
        assertThat(workloads.publish(jobs -> costs)).isEqualTo(1);
        assertThat(client.genericKubernetesResources(WorkloadOperator.CONTEXT)
                        .inNamespace("team")
                        .withName("pytorchjob-echo-1a2b3")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry(WorkloadOperator.AGE, "40")
                .containsEntry(WorkloadOperator.AT_RISK, "0.70");
        assertThat(workloads.publish(jobs -> Map.of())).isZero();
    }

    @Test
    void meaningfulChangeIsTheLargerOfAStepAndTenPercent() {
        assertThat(WorkloadOperator.meaningful(null, 1, 300)).isTrue();
        assertThat(WorkloadOperator.meaningful("1000", 1299, 300)).isFalse();
        assertThat(WorkloadOperator.meaningful("1000", 1300, 300)).isTrue();
        assertThat(WorkloadOperator.meaningful("10000", 10900, 300)).isFalse();
        assertThat(WorkloadOperator.meaningful("10000", 11000, 300)).isTrue();
        assertThat(WorkloadOperator.meaningful("garbage", 1, 300)).isTrue();
    }

    private <T extends io.fabric8.kubernetes.api.model.HasMetadata> T load(String fixture, Class<T> type)
            throws Exception {
        try (InputStream in = Files.newInputStream(Fixtures.path(fixture))) {
            return client.getKubernetesSerialization().unmarshal(in, type);
        }
    }

    private void zookeeperPod(String ns, String name, String node) {
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .addToLabels("app.kubernetes.io/name", "zookeeper")
                        .addToLabels(PodOperator.JOB_LABEL, "zk")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
    }

    @Test
    void anEvictionIsPostedAsThePolicyV1EvictionOfThePod() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode expected = json.readTree(Fixtures.bytes("k8s/eviction_policy_v1.json"));
        String ns = expected.at("/metadata/namespace").asText();
        String name = expected.at("/metadata/name").asText();
        pod(ns, name, "quux-job", "gpu-5", "Running");
        server.expect()
                .post()
                .withPath("/api/v1/namespaces/" + ns + "/pods/" + name + "/eviction")
                .andReturn(201, Map.of("kind", "Status", "apiVersion", "v1", "status", "Success"))
                .once();
        assertThat(actions.evict(new PodRef(ns, name, ns + "/quux-job"), false).result())
                .isEqualTo(Result.EVICTED);
        com.fasterxml.jackson.databind.JsonNode sent =
                json.readTree(server.getLastRequest().getBody().readUtf8());
        assertThat(server.getLastRequest().getPath())
                .isEqualTo("/api/v1/namespaces/" + ns + "/pods/" + name + "/eviction");
        // The body is the Eviction of the Kubernetes documentation, field for field (options aside).
        for (String field : List.of("/apiVersion", "/kind", "/metadata/name", "/metadata/namespace")) {
            assertThat(sent.at(field).asText())
                    .as(field)
                    .isEqualTo(expected.at(field).asText());
        }
    }

    @Test
    void aDisruptionBudgetRefusalLeavesThePodAndTheBudgetAndDeletionIsTheLastResort() throws Exception {
        String refusal = Fixtures.text("k8s/eviction_429_pdb_violation_status.json");
        int n = 0;
        for (String fixture : List.of("k8s/pdb_minavailable.yaml", "k8s/pdb_maxunavailable.yaml")) {
            String ns = "zk-" + n++;
            io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget pdb =
                    load(fixture, io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class);
            pdb.getMetadata().setNamespace(ns);
            client.policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace(ns)
                    .resource(pdb)
                    .create();
            zookeeperPod(ns, "zk-0", "gpu-6");
            zookeeperPod(ns, "zk-1", "gpu-7");
            // The mock enforces no budget: it answers the evictions as the API server answers a budget at its minimum.
            server.expect()
                    .post()
                    .withPath("/api/v1/namespaces/" + ns + "/pods/zk-0/eviction")
                    .andReturn(429, refusal)
                    .times(2);

            ClusterOutcome refused = actions.evict(new PodRef(ns, "zk-0", ns + "/zk"), false);
            assertThat(refused.result()).as(fixture).isEqualTo(Result.RETRY_LATER);
            assertThat(client.pods().inNamespace(ns).withName("zk-0").get())
                    .as(fixture)
                    .isNotNull();
            assertThat(actions.trainingPodsOn("gpu-6")).containsExactly(new PodRef(ns, "zk-0", ns + "/zk"));

            ClusterOutcome deleted = actions.evict(new PodRef(ns, "zk-0", ns + "/zk"), true);
            assertThat(deleted.result()).as(fixture).isEqualTo(Result.DELETED);
            assertThat(client.pods().inNamespace(ns).withName("zk-0").get())
                    .as(fixture)
                    .isNull();
            assertThat(client.pods().inNamespace(ns).withName("zk-1").get())
                    .as("the other pod stays")
                    .isNotNull();
            // The budget itself is never touched by an action.
            io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget after = client.policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace(ns)
                    .withName("zk-pdb")
                    .get();
            assertThat(after.getSpec()).as(fixture).isEqualTo(pdb.getSpec());
        }
    }

    @Test
    void actionsOnAJobNeverChangeItsPriorityOrThePriorityClasses() throws Exception {
        List<io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass> classes = List.of(
                load("k8s/priorityclass_high.yaml", io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class),
                load(
                        "k8s/priorityclass_nonpreempting.yaml",
                        io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class));
        for (io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass pc : classes) {
            client.scheduling().v1().priorityClasses().resource(pc).create();
        }
        GenericKubernetesResource job = pytorchJob("ml4");
        @SuppressWarnings("unchecked")
        Map<String, Object> runPolicy = (Map<String, Object>)
                ((Map<String, Object>) job.getAdditionalProperties().get("spec"))
                        .computeIfAbsent("runPolicy", k -> new HashMap<String, Object>());
        runPolicy.put("schedulingPolicy", Map.of("priorityClass", "high-priority-nonpreempting"));
        client.genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace("ml4")
                .resource(job)
                .update();
        String name = "ml4/elastic-example-echo";

        assertThat(actions.suspend(name, true).result()).isEqualTo(Result.PATCHED);
        assertThat(actions.scaleWorkers(name, 1).result()).isEqualTo(Result.PATCHED);
        assertThat(actions.annotateRestore(name, "ckpt-1", null).result()).isEqualTo(Result.PATCHED);

        GenericKubernetesResource after = getJob("ml4", "elastic-example-echo");
        assertThat(at(after, "spec", "runPolicy", "suspend")).isEqualTo(true);
        assertThat(at(after, "spec", "runPolicy", "schedulingPolicy", "priorityClass"))
                .isEqualTo("high-priority-nonpreempting");
        assertThat(client.scheduling()
                        .v1()
                        .priorityClasses()
                        .withName("high-priority")
                        .get()
                        .getValue())
                .isEqualTo(1_000_000);
        io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass nonPreempting = client.scheduling()
                .v1()
                .priorityClasses()
                .withName("high-priority-nonpreempting")
                .get();
        assertThat(nonPreempting.getPreemptionPolicy()).isEqualTo("Never");
        assertThat(nonPreempting.getValue()).isEqualTo(classes.get(1).getValue());
    }

    @Test
    void withoutAClusterEveryCallFails() {
        NoClusterActions none = new NoClusterActions();
        assertThat(none.available()).isFalse();
        assertThat(none.cordon("n").result()).isEqualTo(Result.FAILED);
        assertThat(none.evict(new PodRef("a", "b", null), true).detail()).contains("no cluster configured");
        assertThat(none.trainingPodsOn("n")).isEqualTo(List.of());
    }
}
