package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import org.junit.jupiter.api.Test;

/** Pending pods of an inference Deployment, against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class PendingPodsTest {

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void countsThePendingPodsTheDeploymentSelects() {
        client.apps()
                .deployments()
                .inNamespace("serving")
                .resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("chat")
                        .endMetadata()
                        .withNewSpec()
                        .withNewSelector()
                        .addToMatchLabels("app", "chat")
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        pod("chat-1", "chat", "Running");
        pod("chat-2", "chat", "Pending");
        pod("chat-3", "chat", "Pending");
        pod("embed-1", "embed", "Pending");
        PendingPods reader = new PendingPods(client);
        DemandTrigger.PendingPods chat = new DemandTrigger.PendingPods("serving", "chat");

        assertThat(reader.serves(chat)).isTrue();
        assertThat(reader.serves(new DemandTrigger.PrometheusQuery("up"))).isFalse();
        assertThat(reader.read(chat)).isEqualTo(2.0);
        assertThatThrownBy(() -> reader.read(new DemandTrigger.PendingPods("serving", "gone")))
                .hasMessageContaining("no Deployment serving/gone");
    }

    private void pod(String name, String app, String phase) {
        client.pods()
                .inNamespace("serving")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels("app", app)
                        .endMetadata()
                        .withNewStatus()
                        .withPhase(phase)
                        .endStatus()
                        .build())
                .create();
    }
}
