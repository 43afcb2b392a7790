package io.lifeline.connector.kube;

import static io.lifeline.connector.http.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.connector.Fixtures;
import io.lifeline.connector.kube.action.WorkloadCostPublisher;
import io.lifeline.testing.CloudEvents;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes actions inside the application, with the Kubernetes connector on (the same mock API server and
 * settings as {@link KubernetesConnectorTest}): the application's {@link ClusterActions} acts on the cluster, and
 * the Workload cost publisher writes the model's checkpoint age on a job's Kueue Workload.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = KubernetesConnectorTest.InstallCrds.class)
@QuarkusTestResource(value = KubernetesConnectorTest.ConnectorOn.class, restrictToAnnotatedClass = true)
class KubernetesActionsAppTest {

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
        client().nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
        assertThat(cluster.available()).isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.PATCHED);
        assertThat(client().nodes().withName(node).get().getSpec().getUnschedulable()).isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.NOOP);
    }

    @Test
    void aJobsWorkloadGetsItsCheckpointAgeFromTheModel() throws Exception {
        String ns = unique("cost");
        String job = ns + "/elastic-example-echo";
        GenericKubernetesResource pytorchJob;
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            pytorchJob = client().getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        pytorchJob.getMetadata().setNamespace(ns);
        client().genericKubernetesResources(PyTorchJobWatcher.CONTEXT).inNamespace(ns).resource(pytorchJob).create();
        Instant saved = Instant.now().minusSeconds(3600);
        api().contentType("application/cloudevents+json").body(CloudEvents.event(CloudEvents.uniqueId(), "test/trainer",
                "trainer.checkpoint.completed", job, saved, "{\"checkpointId\":\"ck-1\",\"step\":100,"
                        + "\"durationSeconds\":30.0,\"blockingSeconds\":10.0,\"uri\":\"s3://ckpt/echo/100\"}"))
                .post("/api/v1/events").then().statusCode(200);

        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder().withName("pytorchjob-elastic-example-echo-c0st1").withNamespace(ns)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("kubeflow.org/v1").withKind("PyTorchJob")
                        .withName("elastic-example-echo").withUid("uid-" + ns).withController(true).build()).build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-queue"));
        client().genericKubernetesResources(KueueWorkloadWatcher.CONTEXT).inNamespace(ns).resource(wl).create();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            publisher.publishNow();
            Map<String, String> a = client().genericKubernetesResources(KueueWorkloadWatcher.CONTEXT).inNamespace(ns)
                    .withName("pytorchjob-elastic-example-echo-c0st1").get().getMetadata().getAnnotations();
            assertThat(a).containsKey("lifeline.io/gpu-hours-at-risk");
            assertThat(Long.parseLong(a.get("lifeline.io/checkpoint-age-seconds"))).isBetween(3590L, 3700L);
        });
    }
}
