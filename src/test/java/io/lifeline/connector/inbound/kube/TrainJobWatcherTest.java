package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.connector.EventContract;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.testing.Fixtures;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kubeflow Trainer v2 TrainJobs against the fabric8 mock API server (CRUD mode), from Kubeflow's own example. */
@EnableKubernetesMockClient(crud = true)
class TrainJobWatcherTest {

    private static final String JOB = "default/kueue-example";

    KubernetesClient client;
    private final Captured out = new Captured();
    private final TrainingPods training = new TrainingPods();
    private SharedIndexInformer<GenericKubernetesResource> informer;

    @BeforeEach
    void watch() {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(TrainJobWatcher.CRD)
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("trainer.kubeflow.org")
                        .withScope("Namespaced")
                        .withNewNames()
                        .withPlural("trainjobs")
                        .withKind("TrainJob")
                        .endNames()
                        .addNewVersion()
                        .withName("v1alpha1")
                        .withServed(true)
                        .withStorage(true)
                        .endVersion()
                        .endSpec()
                        .build())
                .create();
        informer = new TrainJobWatcher(out.ctx, training, null).start(client, 0);
        informer.start().toCompletableFuture().join();
    }

    @AfterEach
    void stop() {
        informer.stop();
    }

    /** The TrainJob of Kubeflow Trainer's Kueue example (the first document of the fixture). */
    static GenericKubernetesResource kueueExample(KubernetesClient client) throws Exception {
        String yaml = Files.readString(Fixtures.path("k8s/trainjob_kueue_integration.yaml"));
        String first = yaml.substring(0, yaml.indexOf("\n---"));
        GenericKubernetesResource job =
                client.getKubernetesSerialization().unmarshal(first, GenericKubernetesResource.class);
        return client.genericKubernetesResources(TrainJobWatcher.CONTEXT)
                .inNamespace("default")
                .resource(job)
                .create();
    }

    @Test
    void aTrainJobIsSubmittedResumedRescaledSuspendedAndFinished() throws Exception {
        GenericKubernetesResource job = kueueExample(client);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_SUBMITTED).size() == 1);
        assertThat(out.of(JOB, EventType.JOB_SUBMITTED).get(0).data())
                .isEqualTo(new JobData.Submitted("default", null, null, new ElasticPolicy(3, 3, 1, 0), 0, null));
        assertThat(training.job(JOB).procsPerNode()).isEqualTo(1);

        spec(job).put("suspend", false);
        job = update(job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.WORKLOAD_ADMITTED).size() == 1);
        assertThat(out.of(JOB, EventType.WORKLOAD_ADMITTED).get(0).data())
                .isEqualTo(new SchedulerData.Admitted("kueue-example", null));

        trainer(job).put("numNodes", 2);
        trainer(job).put("numProcPerNode", 8);
        job = update(job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_UPDATED).size() == 1);
        assertThat(out.of(JOB, EventType.JOB_UPDATED).get(0).data())
                .isEqualTo(new JobData.Updated(null, new ElasticPolicy(2, 2, 8, 0), null, null));

        spec(job).put("suspend", true);
        job = update(job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.WORKLOAD_REQUEUED).size() == 1);

        job.getAdditionalProperties()
                .put(
                        "status",
                        Map.of(
                                "conditions",
                                List.of(Map.of(
                                        "type",
                                        "Complete",
                                        "status",
                                        "True",
                                        "reason",
                                        "JobSetCompleted",
                                        "message",
                                        "jobset completed",
                                        "lastTransitionTime",
                                        "2026-05-01T11:00:00Z"))));
        update(job);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_FINISHED).size() == 1);
        assertThat(out.of(JOB, EventType.JOB_FINISHED).get(0).data())
                .isEqualTo(new JobData.Finished(JobData.Outcome.SUCCEEDED, "JobSetCompleted: jobset completed"));
        client.genericKubernetesResources(TrainJobWatcher.CONTEXT)
                .inNamespace("default")
                .withName("kueue-example")
                .delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.job(JOB) == null);
        assertThat(out.of(JOB, EventType.JOB_FINISHED)).hasSize(1);
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void aTrainJobDeletedBeforeItFinishedIsCancelled() throws Exception {
        kueueExample(client);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_SUBMITTED).size() == 1);
        client.genericKubernetesResources(TrainJobWatcher.CONTEXT)
                .inNamespace("default")
                .withName("kueue-example")
                .delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_FINISHED).size() == 1);
        assertThat(((JobData.Finished)
                                out.of(JOB, EventType.JOB_FINISHED).get(0).data())
                        .outcome())
                .isEqualTo(JobData.Outcome.CANCELLED);
    }

    @Test
    void gpusAndProcessesPerNodeComeFromTheTrainer() {
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName("llm")
                .withNamespace("ml")
                .addToLabels("kueue.x-k8s.io/priority-class", "training-critical")
                .build());
        Map<String, Object> trainer = new HashMap<>(Map.of(
                "numNodes",
                4,
                "numProcPerNode",
                "auto",
                "resourcesPerNode",
                Map.of("limits", Map.of("nvidia.com/gpu", 8))));
        job.getAdditionalProperties().put("spec", new HashMap<>(Map.of("trainer", trainer)));
        TrainJobWatcher.Facts f = TrainJobWatcher.facts(job);
        assertThat(f.elastic()).isEqualTo(new ElasticPolicy(4, 4, 8, 0));
        assertThat(f.gpusPerNode()).isEqualTo(8);
        assertThat(f.priorityClass()).isEqualTo("training-critical");
        trainer.put("numNodes", 0);
        assertThat(TrainJobWatcher.facts(job).elastic()).isNull();
    }

    private GenericKubernetesResource update(GenericKubernetesResource job) {
        return client.genericKubernetesResources(TrainJobWatcher.CONTEXT)
                .inNamespace("default")
                .resource(job)
                .update();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource job) {
        return (Map<String, Object>) job.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> trainer(GenericKubernetesResource job) {
        return (Map<String, Object>) spec(job).get("trainer");
    }
}
