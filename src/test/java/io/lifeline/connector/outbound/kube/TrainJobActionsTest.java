package io.lifeline.connector.outbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.testing.Fixtures;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster actions on a Kubeflow Trainer v2 TrainJob (Kubeflow's Kueue example) in the fabric8 mock API server
 * (CRUD mode): resume and preempt through {@code spec.suspend}, rescale through {@code spec.trainer.numNodes},
 * the restore annotations, and the pod's job for the eviction webhook.
 */
@EnableKubernetesMockClient(crud = true)
class TrainJobActionsTest {

    private static final String JOB = "default/kueue-example";

    KubernetesClient client;
    private KubernetesClusterActions actions;

    @BeforeEach
    void setUp() throws Exception {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName("trainjobs.trainer.kubeflow.org")
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
        String yaml = Files.readString(Fixtures.path("k8s/trainjob_kueue_integration.yaml"));
        GenericKubernetesResource job = client.getKubernetesSerialization()
                .unmarshal(yaml.substring(0, yaml.indexOf("\n---")), GenericKubernetesResource.class);
        client.genericKubernetesResources(TrainJobOperator.CONTEXT)
                .inNamespace("default")
                .resource(job)
                .create();
        actions = new KubernetesClusterActions(client);
    }

    @AfterEach
    void tearDown() {
        actions.close();
    }

    @Test
    void resumeRescaleAndPreemptWriteTheTrainJobsSpecOnce() {
        assertThat(actions.suspend(JOB, false).result()).isEqualTo(Result.PATCHED);
        assertThat(at("spec", "suspend")).isEqualTo(false);
        assertThat(actions.suspend(JOB, false).result()).isEqualTo(Result.NOOP);

        assertThat(actions.scaleWorkers(JOB, 2).detail()).isEqualTo("TrainJob " + JOB + " numNodes 3 -> 2");
        assertThat(at("spec", "trainer", "numNodes")).isEqualTo(2);
        assertThat(actions.scaleWorkers(JOB, 2).result()).isEqualTo(Result.NOOP);
        assertThat(actions.scaleWorkers(JOB, 0).result()).isEqualTo(Result.FAILED);

        assertThat(actions.suspend(JOB, true).result()).isEqualTo(Result.PATCHED);
        assertThat(at("spec", "suspend")).isEqualTo(true);
        // What the trainer needs to run is left as it was.
        assertThat(at("spec", "runtimeRef", "name")).isEqualTo("torch-distributed");
        assertThat(at("spec", "trainer", "image")).isEqualTo("python:3.11-slim");

        assertThat(actions.annotateRestore(JOB, "ck-7", "s3://b/ck-7").result()).isEqualTo(Result.PATCHED);
        assertThat(job().getMetadata().getAnnotations())
                .containsEntry(PyTorchJobOperator.RESTORE_FROM, "ck-7")
                .containsEntry(PyTorchJobOperator.RESTORE_URI, "s3://b/ck-7");
    }

    @Test
    void aJobThatIsNeitherAPyTorchJobNorATrainJobIsNotFound() {
        assertThat(actions.suspend("default/nothing", true).result()).isEqualTo(Result.NOT_FOUND);
        assertThat(actions.suspend("default/nothing", true).detail())
                .contains("no PyTorchJob default/nothing")
                .contains("no TrainJob default/nothing");
    }

    @Test
    void aPodsJobComesFromItsTrainJobOrPyTorchJobLabel() {
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("kueue-example-node-0-0")
                        .withNamespace("default")
                        .addToLabels(PodOperator.TRAINJOB_LABEL, "kueue-example")
                        .endMetadata()
                        .build())
                .create();
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0")
                        .withNamespace("default")
                        .addToLabels(PodOperator.JOB_LABEL, "echo")
                        .endMetadata()
                        .build())
                .create();
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("default")
                        .endMetadata()
                        .build())
                .create();
        assertThat(actions.jobOfPod("default", "kueue-example-node-0-0")).isEqualTo(JOB);
        assertThat(actions.jobOfPod("default", "echo-worker-0")).isEqualTo("default/echo");
        assertThat(actions.jobOfPod("default", "web")).isNull();
        assertThat(actions.jobOfPod("default", "gone")).isNull();
    }

    /** A drain finds a TrainJob's pods on the node (JobSet's pods carry only the TrainJob label) beside PyTorchJobs'. */
    @Test
    void theTrainingPodsOfANodeIncludeTrainJobPods() {
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("kueue-example-node-0-0")
                        .withNamespace("default")
                        .addToLabels(PodOperator.TRAINJOB_LABEL, "kueue-example")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-1")
                        .endSpec()
                        .build())
                .create();
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0")
                        .withNamespace("default")
                        .addToLabels(PodOperator.JOB_LABEL, "echo")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-1")
                        .endSpec()
                        .build())
                .create();
        client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("kueue-example-node-0-1")
                        .withNamespace("default")
                        .addToLabels(PodOperator.TRAINJOB_LABEL, "kueue-example")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-2")
                        .endSpec()
                        .build())
                .create();
        assertThat(actions.trainingPodsOn("gpu-1"))
                .extracting(r -> r.name() + "=" + r.job())
                .containsExactlyInAnyOrder("kueue-example-node-0-0=" + JOB, "echo-worker-0=default/echo");
    }

    private GenericKubernetesResource job() {
        return client.genericKubernetesResources(TrainJobOperator.CONTEXT)
                .inNamespace("default")
                .withName("kueue-example")
                .get();
    }

    @SuppressWarnings("unchecked")
    private Object at(String... path) {
        Object v = job().getAdditionalProperties();
        for (String p : path) {
            v = ((Map<String, Object>) v).get(p);
        }
        return v;
    }
}
