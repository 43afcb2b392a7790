package io.lifeline.connector.outbound.kube;

import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.action.ActionExecutor;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes actions inside the application, against the fabric8 mock API server: with the Kubernetes connector
 * on, the application's {@link ClusterActions} acts on the cluster, and the Workload cost publisher writes the
 * model's checkpoint age on a job's Kueue Workload. The connector's informers stay off here (every kind disabled):
 * their metrics are {@code KubernetesConnectorTest}'s business, and the job reaches the model through the event API.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@QuarkusTestResource(value = KubernetesActionsAppTest.ActionsOn.class, restrictToAnnotatedClass = true)
class KubernetesActionsAppTest {

    /** The Kubernetes connector on (so actions go to the cluster), with no kind watched. */
    public static class ActionsOn implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            Map<String, String> m = new HashMap<>(Map.of(
                    "lifeline.connectors.kubernetes.enabled",
                    "true",
                    "lifeline.connectors.kubernetes.cluster",
                    "mock-actions",
                    // The boost's passes are the tests' own (and the early one a checkpoint starts).
                    "lifeline.priority-boost.enabled",
                    "true",
                    "lifeline.priority-boost.value",
                    "500",
                    "lifeline.priority-boost.interval",
                    "10m"));
            m.put("lifeline.priority-boost.kai.enabled", "true");
            m.put("lifeline.priority-boost.volcano.enabled", "true");
            m.put("lifeline.priority-boost.volcano.protect-for", "1h");
            for (String kind : new String[] {"nodes", "pods", "events", "pytorchjobs", "kueue", "volcano"}) {
                m.put("lifeline.connectors.kubernetes." + kind + ".enabled", "false");
            }
            return m;
        }

        @Override
        public void stop() {
            // nothing to stop
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    ClusterActions cluster;

    @Inject
    WorkloadCostPublisher publisher;

    private KubernetesClient client() {
        return server.getClient();
    }

    @Test
    void theApplicationsClusterIsKubernetesWhenTheConnectorIsOn() {
        String node = unique("act-node");
        client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(node)
                        .endMetadata()
                        .build())
                .create();
        assertThat(cluster.available()).isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.PATCHED);
        assertThat(client().nodes().withName(node).get().getSpec().getUnschedulable())
                .isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.NOOP);
    }

    @Test
    void aNamespaceTokensRendezvousMayPlaceItsJobOnlyOnTheNodesItsPodsRunOn() {
        String ns = unique("place");
        String job = ns + "/llm";
        String mine = unique("place-mine");
        String theirs = unique("place-theirs");
        clusterPod(ns, "llm-worker-0", "llm", mine);
        String token = TestTokens.create(unique("place-agent"), io.lifeline.security.identity.Role.INGEST, List.of(ns));
        java.util.function.Function<String, String> rendezvous = nodes -> CloudEvents.event(
                CloudEvents.uniqueId(),
                "trainer/" + job,
                "trainer.rendezvous",
                job,
                Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                "{\"round\":1,\"worldSize\":8,\"participants\":[" + nodes + "]}");
        given(TestTokens.auth(token))
                .contentType("application/cloudevents+json")
                .body(rendezvous.apply("{\"node\":\"" + mine + "\",\"firstRank\":0,\"rankCount\":4},{\"node\":\""
                        + theirs + "\",\"firstRank\":4,\"rankCount\":4}"))
                .post("/api/v1/events")
                .then()
                .statusCode(403)
                .body("errors[0].reason", org.hamcrest.Matchers.containsString("has no pod on " + theirs));
        given(TestTokens.auth(token))
                .contentType("application/cloudevents+json")
                .body(rendezvous.apply("{\"node\":\"" + mine + "\",\"firstRank\":0,\"rankCount\":8}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("applied", org.hamcrest.Matchers.equalTo(1));
        api().get("/api/v1/jobs/" + job + "/membership")
                .then()
                .statusCode(200)
                .body("current.participants.node", org.hamcrest.Matchers.contains(mine));
    }

    @Test
    void aJobsWorkloadGetsItsCheckpointAgeFromTheModel() {
        String ns = unique("cost");
        String job = ns + "/elastic-example-echo";
        Instant saved = Instant.now().minusSeconds(3600);
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/operator",
                        "job.submitted",
                        job,
                        saved.minusSeconds(600),
                        "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,"
                                + "\"maxNodes\":2,\"procsPerNode\":1,\"maxRestarts\":100},\"gpusPerNode\":1}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/trainer",
                        "trainer.checkpoint.completed",
                        job,
                        saved,
                        "{\"checkpointId\":\"ck-1\",\"step\":100,"
                                + "\"durationSeconds\":30.0,\"blockingSeconds\":10.0,\"uri\":\"s3://ckpt/echo/100\"}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);

        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder()
                .withName("pytorchjob-elastic-example-echo-c0st1")
                .withNamespace(ns)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("elastic-example-echo")
                        .withUid("uid-" + ns)
                        .withController(true)
                        .build())
                .build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-queue"));
        client().genericKubernetesResources(WorkloadOperator.CONTEXT)
                .inNamespace(ns)
                .resource(wl)
                .create();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            publisher.publishNow();
            Map<String, String> a = client().genericKubernetesResources(WorkloadOperator.CONTEXT)
                    .inNamespace(ns)
                    .withName("pytorchjob-elastic-example-echo-c0st1")
                    .get()
                    .getMetadata()
                    .getAnnotations();
            assertThat(a).containsKey("lifeline.io/gpu-hours-at-risk");
            assertThat(Long.parseLong(a.get("lifeline.io/checkpoint-age-seconds")))
                    .isBetween(3590L, 3700L);
        });
    }

    // ------------------------------------------------------------------------------------ priority boost

    @Inject
    PriorityBoostPublisher boosts;

    @Inject
    io.lifeline.action.store.ActionStore audit;

    @Inject
    io.micrometer.core.instrument.MeterRegistry registry;

    private double boostChanges(String change) {
        return registry.get("lifeline_workload_priority_boosts")
                .tag("change", change)
                .counter()
                .count();
    }

    private GenericKubernetesResource workload(String ns, String name, String owner, Map<String, String> annotations) {
        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(ns)
                .withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName(owner)
                        .withUid("uid-" + name)
                        .withController(true)
                        .build())
                .build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-queue"));
        return client().genericKubernetesResources(WorkloadOperator.CONTEXT)
                .inNamespace(ns)
                .resource(wl)
                .create();
    }

    private Map<String, String> annotations(String ns, String name) {
        Map<String, String> a = client().genericKubernetesResources(WorkloadOperator.CONTEXT)
                .inNamespace(ns)
                .withName(name)
                .get()
                .getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    @Test
    void aStaleJobsWorkloadIsBoostedUntilItsNextCheckpoint() throws Exception {
        String ns = unique("boost");
        String job = ns + "/llm";
        Instant t0 = Instant.now().minusSeconds(7200);
        String n1 = ns + "-a";
        String n2 = ns + "-b";
        api().contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n1, t0),
                        CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n2, t0),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/operator",
                                "job.submitted",
                                job,
                                t0,
                                "{\"namespace\":\""
                                        + ns
                                        + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,\"maxRestarts\":10},"
                                        + "\"gpusPerNode\":8}"),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/trainer",
                                "trainer.rendezvous",
                                job,
                                t0.plusSeconds(10),
                                "{\"runId\":\"run-1\",\"round\":1,\"worldSize\":16,\"participants\":[{\"node\":\"" + n1
                                        + "\",\"firstRank\":0,\"rankCount\":8},{\"node\":\"" + n2
                                        + "\",\"firstRank\":8,\"rankCount\":8}]}"),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/trainer",
                                "trainer.progress",
                                job,
                                t0.plusSeconds(20),
                                "{\"step\":1}"))))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        workload(ns, "pytorchjob-llm-b00st", "llm", null);
        // A boost someone else wrote on the job's other Workload is theirs: left alone.
        workload(ns, "pytorchjob-llm-other", "llm", Map.of(WorkloadBoosts.BOOST, "7"));
        double setBefore = boostChanges("set");
        double removedBefore = boostChanges("removed");

        // Two hours on 16 GPUs without a checkpoint: 32 GPU-hours at risk, over the default 4.
        List<PriorityBoostPublisher.Change> first = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> boosts.passNow().stream()
                                .filter(c -> c.job().equals(job))
                                .toList(),
                        l -> !l.isEmpty());
        assertThat(first).singleElement().satisfies(c -> {
            assertThat(c.workload()).isEqualTo(ns + "/pytorchjob-llm-b00st");
            assertThat(c.before()).isNull();
            assertThat(c.after()).isEqualTo(500);
            assertThat(c.reason()).contains("GPU-hours at risk").contains("at or above 4.00 GPU-hours");
        });
        assertThat(annotations(ns, "pytorchjob-llm-b00st"))
                .containsEntry("kueue.x-k8s.io/priority-boost", "500")
                .containsEntry("lifeline.io/priority-boost", "500")
                .containsKey("lifeline.io/priority-boosted-at");
        assertThat(annotations(ns, "pytorchjob-llm-other"))
                .containsEntry("kueue.x-k8s.io/priority-boost", "7")
                .doesNotContainKey("lifeline.io/priority-boost");
        // Nothing moved: nothing written.
        assertThat(boosts.passNow()).noneMatch(c -> c.job().equals(job));
        assertThat(boostChanges("set")).isEqualTo(setBefore + 1);

        // A checkpoint lands: the pass it starts takes the boost off, without waiting for the interval.
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/trainer",
                        "trainer.checkpoint.completed",
                        job,
                        Instant.now(),
                        "{\"checkpointId\":\"ck-1\",\"step\":900,"
                                + "\"durationSeconds\":30.0,\"blockingSeconds\":10.0,\"uri\":\"s3://ckpt/llm/900\"}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(annotations(ns, "pytorchjob-llm-b00st"))
                        .doesNotContainKeys(
                                "kueue.x-k8s.io/priority-boost",
                                "lifeline.io/priority-boost",
                                "lifeline.io/priority-boosted-at"));
        assertThat(annotations(ns, "pytorchjob-llm-other")).containsEntry("kueue.x-k8s.io/priority-boost", "7");
        assertThat(boostChanges("removed")).isEqualTo(removedBefore + 1);

        List<io.lifeline.action.view.AuditEntry> entries = audit.audit(new io.lifeline.action.view.AuditQuery(
                        PriorityBoostPublisher.ACTOR, null, job, null, null, null, 10, null))
                .items();
        assertThat(entries)
                .extracting(io.lifeline.action.view.AuditEntry::what)
                .containsExactlyInAnyOrder("workload.priority_boost.set", "workload.priority_boost.removed");
        assertThat(entries)
                .filteredOn(e -> e.what().endsWith(".removed"))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.reason()).contains("since checkpoint ck-1 (step 900): below");
                    assertThat(e.before())
                            .isEqualTo("workload " + ns + "/pytorchjob-llm-b00st: kueue.x-k8s.io/priority-boost=500");
                    assertThat(e.after()).isEqualTo("workload " + ns + "/pytorchjob-llm-b00st: no boost");
                });
    }

    // ------------------------------------------------------------------------------------ PodGroup preemption cost

    private double marks(String scheduler, String change) {
        return registry.get("lifeline_podgroup_preemption_marks")
                .tag("scheduler", scheduler)
                .tag("change", change)
                .counter()
                .count();
    }

    /** A job that trained two hours on 16 GPUs without a checkpoint: 32 GPU-hours at risk. */
    private void staleJob(String ns, String job) {
        Instant t0 = Instant.now().minusSeconds(7200);
        String n1 = unique("pg-node");
        String n2 = unique("pg-node");
        api().contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n1, t0),
                        CloudEvents.nodeRegistered(CloudEvents.uniqueId(), n2, t0),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/operator",
                                "job.submitted",
                                job,
                                t0,
                                "{\"namespace\":\"" + ns
                                        + "\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,\"maxRestarts\":10},"
                                        + "\"gpusPerNode\":8}"),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/trainer",
                                "trainer.rendezvous",
                                job,
                                t0.plusSeconds(10),
                                "{\"runId\":\"run-1\",\"round\":1,\"worldSize\":16,\"participants\":[{\"node\":\"" + n1
                                        + "\",\"firstRank\":0,\"rankCount\":8},{\"node\":\"" + n2
                                        + "\",\"firstRank\":8,\"rankCount\":8}]}"),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "test/trainer",
                                "trainer.progress",
                                job,
                                t0.plusSeconds(20),
                                "{\"step\":1}"))))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    private GenericKubernetesResource podGroupFixture(String file, String ns) throws Exception {
        GenericKubernetesResource pg;
        try (InputStream in = Files.newInputStream(Fixtures.path(file))) {
            pg = client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        pg.getMetadata().setNamespace(ns);
        return pg;
    }

    private Map<String, String> podGroupAnnotations(
            io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext ctx, String ns, String name) {
        Map<String, String> a = client().genericKubernetesResources(ctx)
                .inNamespace(ns)
                .withName(name)
                .get()
                .getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    @Test
    void aStaleJobsPodGroupsCarryItsPreemptionCostAndVolcanoProtectsItUntilItsCheckpoint() throws Exception {
        String ns = unique("pgcost");
        // KAI's pod grouper owns the PodGroup by the pods' top owner (here a bare pod, as in KAI's own example).
        String kaiJob = ns + "/gpu-pod";
        String kaiName = "pg-gpu-pod-d81e6f2c-8da7-4e61-8758-d8a2c38d2bfb";
        // Volcano's job controller owns its PodGroup by the Volcano Job (a controller reference).
        String vcJob = ns + "/llm-vc";
        staleJob(ns, kaiJob);
        staleJob(ns, vcJob);
        GenericKubernetesResource kai = podGroupFixture("k8s/kai_podgroup_shard_label.yaml", ns);
        client().genericKubernetesResources(PodGroupOperator.KAI)
                .inNamespace(ns)
                .resource(kai)
                .create();
        GenericKubernetesResource vc = podGroupFixture("k8s/volcano_podgroup_artifact.yaml", ns);
        vc.getMetadata()
                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion("batch.volcano.sh/v1alpha1")
                        .withKind("Job")
                        .withName("llm-vc")
                        .withUid("uid-llm-vc")
                        .withController(true)
                        .build()));
        client().genericKubernetesResources(PodGroupOperator.VOLCANO)
                .inNamespace(ns)
                .resource(vc)
                .create();
        double kaiSet = marks("kai", "set");
        double vcRemoved = marks("volcano", "removed");

        List<PriorityBoostPublisher.PodGroupChange> first = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> boosts.pass().podGroups().stream()
                                .filter(c -> c.job().startsWith(ns + "/"))
                                .toList(),
                        l -> l.size() == 2);
        assertThat(first)
                .extracting(PriorityBoostPublisher.PodGroupChange::scheduler)
                .containsExactlyInAnyOrder("kai", "volcano");
        assertThat(first).allSatisfy(c -> {
            assertThat(c.high()).isTrue();
            assertThat(c.reason()).contains("at or above 4.00 GPU-hours");
        });
        assertThat(podGroupAnnotations(PodGroupOperator.KAI, ns, kaiName))
                .containsEntry("lifeline.io/preemption-cost", "high")
                .containsKey("lifeline.io/preemption-cost-since")
                // KAI has no per-PodGroup knob Lifeline drives: its pod grouper's annotation stays, nothing else.
                .containsKey("kai.scheduler/top-owner-metadata")
                .doesNotContainKey("volcano.sh/preemptable");
        assertThat(podGroupAnnotations(PodGroupOperator.VOLCANO, ns, "test-pg"))
                .containsEntry("lifeline.io/preemption-cost", "high")
                .containsEntry("volcano.sh/preemptable", "false")
                .containsEntry("lifeline.io/preemption-protected", "true");
        assertThat(marks("kai", "set")).isEqualTo(kaiSet + 1);
        // Nothing moved: nothing written.
        assertThat(boosts.pass().podGroups()).noneMatch(c -> c.job().startsWith(ns + "/"));

        // The Volcano job checkpoints: the pass that starts takes the cost and the protection off at once.
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/trainer",
                        "trainer.checkpoint.completed",
                        vcJob,
                        Instant.now(),
                        "{\"checkpointId\":\"ck-7\",\"step\":700,"
                                + "\"durationSeconds\":30.0,\"blockingSeconds\":10.0,\"uri\":\"s3://ckpt/vc/700\"}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(podGroupAnnotations(PodGroupOperator.VOLCANO, ns, "test-pg"))
                        .doesNotContainKeys(
                                "lifeline.io/preemption-cost",
                                "lifeline.io/preemption-cost-since",
                                "volcano.sh/preemptable",
                                "lifeline.io/preemption-protected"));
        assertThat(podGroupAnnotations(PodGroupOperator.KAI, ns, kaiName))
                .containsEntry("lifeline.io/preemption-cost", "high");
        assertThat(marks("volcano", "removed")).isEqualTo(vcRemoved + 1);

        List<io.lifeline.action.view.AuditEntry> entries = audit.audit(new io.lifeline.action.view.AuditQuery(
                        PriorityBoostPublisher.ACTOR, null, vcJob, null, null, null, 10, null))
                .items();
        assertThat(entries)
                .extracting(io.lifeline.action.view.AuditEntry::what)
                .containsExactlyInAnyOrder("podgroup.preemption_cost.set", "podgroup.preemption_cost.removed");
        assertThat(entries)
                .filteredOn(e -> e.what().endsWith(".set"))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.reason()).startsWith("volcano: ");
                    assertThat(e.before()).isEqualTo("podgroup " + ns + "/test-pg: preemption cost not high");
                    assertThat(e.after())
                            .contains("lifeline.io/preemption-cost=high since ")
                            .endsWith(", volcano.sh/preemptable=false");
                });
    }

    // ------------------------------------------------------------------------------------ drains, end to end

    @Inject
    ActionExecutor executor;

    private void clusterNode(String name) {
        client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    private void clusterJob(String ns, String name, int min, int max, int replicas) throws Exception {
        GenericKubernetesResource job;
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            job = client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(ns);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) job.getAdditionalProperties().get("spec");
        @SuppressWarnings("unchecked")
        Map<String, Object> elastic = (Map<String, Object>) spec.get("elasticPolicy");
        elastic.put("minReplicas", min);
        elastic.put("maxReplicas", max);
        workers(spec).put("replicas", replicas);
        client().genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace(ns)
                .resource(job)
                .create();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> workers(Map<String, Object> spec) {
        return (Map<String, Object>) ((Map<String, Object>) spec.get("pytorchReplicaSpecs")).get("Worker");
    }

    @SuppressWarnings("unchecked")
    private Object workerReplicas(String ns, String name) {
        GenericKubernetesResource j = client().genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace(ns)
                .withName(name)
                .get();
        return workers((Map<String, Object>) j.getAdditionalProperties().get("spec"))
                .get("replicas");
    }

    private void clusterPod(String ns, String name, String job, String node) {
        client().pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .addToLabels(PodOperator.JOB_LABEL, job)
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

    /**
     * Answers evictions of one pod as an API server with a PodDisruptionBudget would: 429 first when asked, then 201
     * (after which the pod goes, as the real server would delete it). Counts every eviction request.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // the reply does not wait for the deletion
    private AtomicInteger evictions(String ns, String pod, boolean refuseFirst) {
        AtomicInteger count = new AtomicInteger();
        String path = "/api/v1/namespaces/" + ns + "/pods/" + pod + "/eviction";
        if (refuseFirst) {
            server.expect()
                    .post()
                    .withPath(path)
                    .andReply(429, r -> {
                        count.incrementAndGet();
                        return Map.of(
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
                                "Cannot evict pod as it would violate the pod's disruption budget.");
                    })
                    .once();
        }
        server.expect()
                .post()
                .withPath(path)
                .andReply(201, r -> {
                    count.incrementAndGet();
                    CompletableFuture.runAsync(
                            () -> client().pods().inNamespace(ns).withName(pod).delete());
                    return Map.of("kind", "Status", "apiVersion", "v1", "status", "Success");
                })
                .once();
        return count;
    }

    private static String drain(String node, int deadlineSeconds) {
        return api().contentType("application/json")
                .body("{\"kind\":\"drain\",\"target\":\"" + node + "\",\"params\":{\"deadlineSeconds\":"
                        + deadlineSeconds + "},\"reason\":\"test drain\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Plays a job's trainers: takes its prepare_exit command from the agent queue, acknowledges it, saves. */
    /** The key of the agent these tests play: one for every job, as each job's first poll claims it. */
    private static final String AGENT_KEY = io.lifeline.testing.AgentKeys.fresh();

    private static void obey(TestFleet fleet, String ns, String name, long step) {
        io.restassured.specification.RequestSpecification agent =
                io.lifeline.testing.AgentKeys.as(TestTokens.ingest(), AGENT_KEY);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<Map<String, Object>> cmds = given().spec(agent)
                    .queryParam("wait", 2)
                    .get("/api/v1/agents/" + ns + "/" + name + "/commands")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            Map<String, Object> cmd = cmds.stream()
                    .filter(c -> "lifeline.command.prepare_exit".equals(c.get("type")))
                    .findFirst()
                    .orElse(null);
            assertThat(cmd).as("prepare_exit for " + name).isNotNull();
            given().spec(agent)
                    .contentType("application/json")
                    .body("{\"status\":\"accepted\",\"detail\":\"saving\"}")
                    .post("/api/v1/agents/" + ns + "/" + name + "/commands/" + cmd.get("id") + "/ack")
                    .then()
                    .statusCode(202);
        });
        fleet.checkpoint(ns + "/" + name, name + "-exit", step, 4);
    }

    private static List<String> stepNames(String id) {
        return api().get("/api/v1/actions/" + id).then().extract().jsonPath().getList("steps.name");
    }

    @Test
    void drainOfANodeHostingTwoElasticJobsCheckpointsEvictsThroughPdbAndShrinks() throws Exception {
        String ns = unique("drain");
        String a = unique("gpu-a");
        String b = unique("gpu-b");
        String c = unique("gpu-c");
        TestFleet fleet = new TestFleet();
        for (String n : List.of(a, b, c)) {
            clusterNode(n);
            fleet.node(n, "spot-pool");
        }
        clusterJob(ns, "llm", 1, 3, 2);
        clusterJob(ns, "bert", 1, 3, 2);
        clusterPod(ns, "llm-worker-0", "llm", a);
        clusterPod(ns, "llm-worker-1", "llm", b);
        clusterPod(ns, "bert-worker-0", "bert", a);
        clusterPod(ns, "bert-worker-1", "bert", c);
        fleet.job(ns + "/llm", 1, 3, a, b)
                .checkpoint(ns + "/llm", "llm-1", 100, 5)
                .progress(ns + "/llm", 180);
        fleet.job(ns + "/bert", 1, 3, a, c)
                .checkpoint(ns + "/bert", "bert-1", 100, 5)
                .progress(ns + "/bert", 140);
        AtomicInteger llmEvictions = evictions(ns, "llm-worker-0", true);
        AtomicInteger bertEvictions = evictions(ns, "bert-worker-0", false);

        String id = drain(a, 120);
        obey(fleet, ns, "llm", 200);
        obey(fleet, ns, "bert", 160);

        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> api().get("/api/v1/actions/" + id)
                        .then()
                        .body("state", org.hamcrest.Matchers.equalTo("succeeded")));
        List<String> steps = stepNames(id);
        assertThat(steps)
                .containsSubsequence(
                        "cordon",
                        "await checkpoint " + ns + "/llm",
                        "evict " + ns + "/llm-worker-0",
                        "shrink " + ns + "/llm");
        assertThat(steps.indexOf("await checkpoint " + ns + "/bert")).isLessThan(steps.indexOf("list pods"));
        assertThat(api().get("/api/v1/actions/" + id)
                        .then()
                        .extract()
                        .jsonPath()
                        .getString("steps.find { it.name == 'evict " + ns + "/llm-worker-0' }.detail"))
                .contains("1 refusal");
        assertThat(client().nodes().withName(a).get().getSpec().getUnschedulable())
                .isTrue();
        assertThat(llmEvictions.get()).as("429, then 201").isEqualTo(2);
        assertThat(bertEvictions.get()).isEqualTo(1);
        assertThat(workerReplicas(ns, "llm")).isEqualTo(1);
        assertThat(workerReplicas(ns, "bert")).isEqualTo(1);
        assertThat(api().queryParam("actionId", id)
                        .queryParam("what", "action.step")
                        .get("/api/v1/audit")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.before"))
                .contains("cordon", "evict " + ns + "/llm-worker-0");
    }

    @Test
    void aDrainStoppedAfterCordonCompletesExactlyOnceAfterARestart() throws Exception {
        String ns = unique("crash");
        String d = unique("gpu-d");
        String e = unique("gpu-e");
        TestFleet fleet = new TestFleet();
        for (String n : List.of(d, e)) {
            clusterNode(n);
            fleet.node(n, "spot-pool");
        }
        clusterJob(ns, "gpt", 1, 2, 2);
        clusterPod(ns, "gpt-worker-0", "gpt", d);
        clusterPod(ns, "gpt-worker-1", "gpt", e);
        // Saved at its latest step: nothing to checkpoint, so the drain goes straight to cordon and eviction.
        fleet.job(ns + "/gpt", 1, 2, d, e).checkpoint(ns + "/gpt", "gpt-1", 100, 5);
        AtomicInteger evicted = evictions(ns, "gpt-worker-0", false);
        CountDownLatch atCordon = new CountDownLatch(1);
        executor.hook((action, step) -> {
            if (step.equals("cordon")) {
                atCordon.countDown();
                Thread.sleep(Long.MAX_VALUE);
            }
        });
        String id;
        try {
            id = drain(d, 120);
            assertThat(atCordon.await(30, TimeUnit.SECONDS))
                    .as("the drain reached its cordon")
                    .isTrue();
            executor.stop();
        } finally {
            executor.hook((action, step) -> {});
        }
        api().get("/api/v1/actions/" + id).then().body("state", org.hamcrest.Matchers.equalTo("running"));
        assertThat(client().nodes().withName(d).get().getSpec().getUnschedulable())
                .isTrue();
        assertThat(evicted.get()).isZero();

        executor.start();
        await().atMost(Duration.ofMinutes(3))
                .untilAsserted(() -> api().get("/api/v1/actions/" + id)
                        .then()
                        .body("state", org.hamcrest.Matchers.equalTo("succeeded")));
        assertThat(evicted.get()).as("evictions after the restart").isEqualTo(1);
        assertThat(stepNames(id)).containsOnlyOnce("cordon", "evict " + ns + "/gpt-worker-0");
        List<String> what = api().queryParam("actionId", id)
                .queryParam("limit", 1000)
                .get("/api/v1/audit")
                .then()
                .extract()
                .jsonPath()
                .getList("items.what");
        assertThat(what.stream().filter("action.requested"::equals).count()).isEqualTo(1);
        assertThat(what.stream().filter("action.succeeded"::equals).count()).isEqualTo(1);
        List<String> stepsDone = api().queryParam("actionId", id)
                .queryParam("what", "action.step")
                .get("/api/v1/audit")
                .then()
                .extract()
                .jsonPath()
                .getList("items.before");
        assertThat(stepsDone.stream().filter("cordon"::equals).count())
                .as("cordon recorded done once")
                .isEqualTo(1);
        assertThat(api().queryParam("target", d)
                        .queryParam("kind", "drain")
                        .get("/api/v1/actions")
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("items.id"))
                .containsExactly(id);
    }

    @SuppressWarnings("unchecked")
    private Object suspended(String ns, String name) {
        GenericKubernetesResource j = client().genericKubernetesResources(PyTorchJobOperator.CONTEXT)
                .inNamespace(ns)
                .withName(name)
                .get();
        Map<String, Object> spec =
                (Map<String, Object>) j.getAdditionalProperties().get("spec");
        Map<String, Object> run = (Map<String, Object>) spec.get("runPolicy");
        return run == null ? null : run.get("suspend");
    }

    @Test
    void preemptSavesThenSuspendsAndResumeLiftsIt() throws Exception {
        String ns = unique("preempt");
        String n = unique("gpu-p");
        TestFleet fleet = new TestFleet();
        clusterNode(n);
        fleet.node(n, "spot-pool");
        clusterJob(ns, "t5", 1, 2, 1);
        fleet.job(ns + "/t5", 1, 2, n).checkpoint(ns + "/t5", "t5-1", 100, 5).progress(ns + "/t5", 150);
        String id = api().contentType("application/json")
                .body("{\"kind\":\"preempt\",\"target\":\"" + ns
                        + "/t5\",\"params\":{\"deadlineSeconds\":60},\"reason\":\"launch run needs the pool\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        obey(fleet, ns, "t5", 160);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> api().get("/api/v1/actions/" + id)
                        .then()
                        .body("state", org.hamcrest.Matchers.equalTo("succeeded"))
                        .body("outcome", org.hamcrest.Matchers.containsString("preempted by")));
        assertThat(stepNames(id))
                .containsSubsequence("request checkpoint " + ns + "/t5", "await checkpoint " + ns + "/t5", "suspend");
        assertThat(suspended(ns, "t5")).isEqualTo(true);
        // The scheduler's answer to the suspension is what makes the job resumable in Lifeline's eyes.
        fleet.send(
                ns + "/t5",
                io.lifeline.domain.event.EventType.WORKLOAD_EVICTED,
                new io.lifeline.domain.event.SchedulerData.Evicted("suspended by lifeline"));
        String resume = api().contentType("application/json")
                .body("{\"kind\":\"resume\",\"target\":\"" + ns + "/t5\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> api().get("/api/v1/actions/" + resume)
                        .then()
                        .body("state", org.hamcrest.Matchers.equalTo("succeeded")));
        assertThat(suspended(ns, "t5")).isEqualTo(false);
    }
}
