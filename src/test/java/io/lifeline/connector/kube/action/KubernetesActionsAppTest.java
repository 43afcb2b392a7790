package io.lifeline.connector.kube.action;

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
import io.lifeline.testing.CloudEvents;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
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
            Map<String, String> m = new HashMap<>(Map.of("lifeline.connectors.kubernetes.enabled", "true",
                    "lifeline.connectors.kubernetes.cluster", "mock-actions"));
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
        client().nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
        assertThat(cluster.available()).isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.PATCHED);
        assertThat(client().nodes().withName(node).get().getSpec().getUnschedulable()).isTrue();
        assertThat(cluster.cordon(node).result()).isEqualTo(Result.NOOP);
    }

    @Test
    void aJobsWorkloadGetsItsCheckpointAgeFromTheModel() {
        String ns = unique("cost");
        String job = ns + "/elastic-example-echo";
        Instant saved = Instant.now().minusSeconds(3600);
        api().contentType("application/cloudevents+json").body(CloudEvents.event(CloudEvents.uniqueId(), "test/operator",
                "job.submitted", job, saved.minusSeconds(600), "{\"namespace\":\"" + ns + "\",\"elastic\":{\"minNodes\":1,"
                        + "\"maxNodes\":2,\"procsPerNode\":1,\"maxRestarts\":100},\"gpusPerNode\":1}"))
                .post("/api/v1/events").then().statusCode(200);
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
        client().genericKubernetesResources(WorkloadOperator.CONTEXT).inNamespace(ns).resource(wl).create();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            publisher.publishNow();
            Map<String, String> a = client().genericKubernetesResources(WorkloadOperator.CONTEXT).inNamespace(ns)
                    .withName("pytorchjob-elastic-example-echo-c0st1").get().getMetadata().getAnnotations();
            assertThat(a).containsKey("lifeline.io/gpu-hours-at-risk");
            assertThat(Long.parseLong(a.get("lifeline.io/checkpoint-age-seconds"))).isBetween(3590L, 3700L);
        });
    }
}
