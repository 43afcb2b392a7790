package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.testing.Fixtures;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A TorchFT job recognised from its spec against the fabric8 mock API server: the elastic echo PyTorchJob with the
 * environment TorchFT's own TorchX component ({@code torchft/torchx.py} {@code hsdp}) gives each replica group is
 * submitted as a job that heals itself, with its Lighthouse; the same job without it is not.
 */
@EnableKubernetesMockClient(crud = true)
class TorchFtJobTest {

    private static final String NS = "team-ft";

    KubernetesClient client;
    private final Captured out = new Captured();
    private SharedIndexInformer<?> informer;

    @BeforeEach
    void watch() {
        informer = new PyTorchJobWatcher(out.ctx, new TrainingPods(), null).start(client, 0);
        informer.start().toCompletableFuture().join();
    }

    @AfterEach
    void stop() {
        informer.stop();
    }

    @SuppressWarnings("unchecked")
    private void create(String name, boolean torchft) throws Exception {
        GenericKubernetesResource job;
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            job = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(NS);
        if (torchft) {
            Map<String, Object> spec =
                    (Map<String, Object>) job.getAdditionalProperties().get("spec");
            Map<String, Object> worker =
                    (Map<String, Object>) ((Map<String, Object>) spec.get("pytorchReplicaSpecs")).get("Worker");
            Map<String, Object> container = ((List<Map<String, Object>>)
                            ((Map<String, Object>) ((Map<String, Object>) worker.get("template")).get("spec"))
                                    .get("containers"))
                    .get(0);
            List<Object> env = new ArrayList<>((List<Object>) container.get("env"));
            env.add(Map.of("name", "REPLICA_GROUP_ID", "value", "0"));
            env.add(Map.of("name", "NUM_REPLICA_GROUPS", "value", "2"));
            env.add(Map.of("name", "TORCHFT_LIGHTHOUSE", "value", "http://llm-ft-lighthouse:29510"));
            container.put("env", env);
        }
        client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .create();
    }

    private JobData.Submitted submitted(String name) {
        String job = NS + "/" + name;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(job, EventType.JOB_SUBMITTED).size() == 1);
        return (JobData.Submitted) out.of(job, EventType.JOB_SUBMITTED).get(0).data();
    }

    @Test
    void aJobWhosePodsNameATorchFtLighthouseHealsItself() throws Exception {
        create("llm-ft", true);
        create("llm-plain", false);
        assertThat(submitted("llm-ft").healsItself())
                .isEqualTo(new JobData.SelfHealing("torchft", "http://llm-ft-lighthouse:29510"));
        assertThat(submitted("llm-plain").healsItself()).isNull();
    }
}
