package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.connector.EventContract;
import io.lifeline.connector.inbound.pipeline.HostNodes;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.Fixtures;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pods of a Kubeflow Trainer v2 TrainJob against the fabric8 mock API server, beside a PyTorchJob's. The pods
 * carry what JobSet ({@code labelAndAnnotateObject} in its jobset_controller.go) and the Job controller put on them
 * for Trainer's {@code node} replicated job; Trainer itself labels none.
 */
@EnableKubernetesMockClient(crud = true)
class TrainJobPodsTest {

    private static final String NS = "default";
    private static final String NAME = "kueue-example";
    private static final String JOB = NS + "/" + NAME;

    KubernetesClient client;
    private final Captured out = new Captured();
    private final TrainingPods training = new TrainingPods();
    private final HostNodes hosts = new HostNodes();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    @BeforeEach
    void watch() throws Exception {
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
        informers.add(new TrainJobWatcher(out.ctx, training, null).start(client, 0));
        PodWatcher pods = new PodWatcher(out.ctx, training, hosts);
        informers.add(pods.start(client, 0, PodScheme.PYTORCHJOB));
        informers.add(pods.start(client, 0, PodScheme.TRAINJOB));
        informers.add(new EventWatcher(out.ctx, training).start(client, 0));
        informers.forEach(i -> i.start().toCompletableFuture().join());
    }

    @AfterEach
    void stop() {
        informers.forEach(SharedIndexInformer::stop);
    }

    /** Kubeflow Trainer's Kueue example TrainJob (3 nodes), with 4 processes per node. */
    private void trainJob() throws Exception {
        String yaml = Files.readString(Fixtures.path("k8s/trainjob_kueue_integration.yaml"));
        GenericKubernetesResource job = client.getKubernetesSerialization()
                .unmarshal(yaml.substring(0, yaml.indexOf("\n---")), GenericKubernetesResource.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> trainer = (Map<String, Object>)
                ((Map<String, Object>) job.getAdditionalProperties().get("spec")).get("trainer");
        trainer.put("numProcPerNode", 4);
        client.genericKubernetesResources(TrainJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .create();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.job(JOB) != null);
    }

    /** A pod of the JobSet {@code jobset}'s replicated job {@code rjob}, at completion index {@code index}. */
    private static Pod jobSetPod(String jobset, String rjob, int index) {
        String podName = jobset + "-" + rjob + "-0-" + index + "-x7k2p";
        return new PodBuilder()
                .withNewMetadata()
                .withName(podName)
                .withNamespace(NS)
                .addToLabels(PodScheme.TrainJobPods.JOBSET_NAME, jobset)
                .addToLabels(PodScheme.TrainJobPods.REPLICATED_JOB, rjob)
                .addToLabels("jobset.sigs.k8s.io/job-index", "0")
                .addToLabels("batch.kubernetes.io/job-name", jobset + "-" + rjob + "-0")
                .addToLabels(PodScheme.TrainJobPods.COMPLETION_INDEX, String.valueOf(index))
                .addToAnnotations(PodScheme.TrainJobPods.COMPLETION_INDEX, String.valueOf(index))
                .addToAnnotations(PodScheme.TrainJobPods.REPLICATED_JOB, rjob)
                .endMetadata()
                .withNewSpec()
                .withNodeName("gpu-node-" + index)
                .withHostname(jobset + "-" + rjob + "-0-" + index)
                .withSubdomain(jobset)
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
    }

    private static List<io.fabric8.kubernetes.api.model.ContainerStatus> oomKilled() {
        return List.of(new ContainerStatusBuilder()
                .withName("node")
                .withRestartCount(1)
                .withNewLastState()
                .withNewTerminated()
                .withExitCode(137)
                .withReason("OOMKilled")
                .withFinishedAt("2026-03-01T10:30:00Z")
                .endTerminated()
                .endLastState()
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .build());
    }

    @Test
    void anEvictedTrainerNodeIsAPodEvictionOfItsTrainJob() throws Exception {
        trainJob();
        Pod pod = client.pods().resource(jobSetPod(NAME, "node", 2)).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> training.pod(NS, pod.getMetadata().getName()) != null);
        TrainingPods.Pod known = training.pod(NS, pod.getMetadata().getName());
        assertThat(known.job()).isEqualTo(JOB);
        assertThat(known.replicaType()).isEqualTo("node");
        assertThat(known.replicaIndex()).isEqualTo(2);
        assertThat(hosts.nodeFor("kueue-example-node-0-2")).isEqualTo("gpu-node-2"); // the hostname torchrun reports

        pod.getStatus()
                .setConditions(List.of(new PodConditionBuilder()
                        .withType("DisruptionTarget")
                        .withStatus("True")
                        .withReason("PreemptionByScheduler")
                        .withMessage("Kueue preempted the workload")
                        .withLastTransitionTime("2026-03-01T10:40:00Z")
                        .build()));
        client.pods().resource(pod).updateStatus();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.POD_EVICTED).size() == 1);
        Event evicted = out.of(JOB, EventType.POD_EVICTED).get(0);
        assertThat(evicted.data())
                .isEqualTo(new SchedulerData.PodEvicted(
                        pod.getMetadata().getName(),
                        "gpu-node-2",
                        "PreemptionByScheduler: Kueue preempted the workload"));
        assertThat(evicted.id()).isEqualTo("pod/" + pod.getMetadata().getUid() + "/evicted");

        // The Kubernetes Event about the same pod names the TrainJob too, and is the same eviction.
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("node-2.preempted")
                        .withNamespace(NS)
                        .endMetadata()
                        .withReason("Preempted")
                        .withType("Normal")
                        .withMessage("Preempted by pod 7f7c0d2e on node gpu-node-2")
                        .withLastTimestamp("2026-03-01T10:40:01Z")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName(pod.getMetadata().getName())
                        .withNamespace(NS)
                        .withUid(pod.getMetadata().getUid())
                        .endInvolvedObject()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.POD_EVICTED).size() == 2);
        assertThat(out.of(JOB, EventType.POD_EVICTED)).extracting(Event::id).containsOnly(evicted.id());
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void anOomKilledTrainerNodeIsAWorkerFailureAtItsNodesFirstRank() throws Exception {
        trainJob();
        Pod pod = client.pods().resource(jobSetPod(NAME, "node", 2)).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> training.pod(NS, pod.getMetadata().getName()) != null);
        pod.getStatus().setContainerStatuses(oomKilled());
        client.pods().resource(pod).updateStatus();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.TRAINER_WORKER_FAILED).size() == 1);
        TrainerData.WorkerFailed f = (TrainerData.WorkerFailed)
                out.of(JOB, EventType.TRAINER_WORKER_FAILED).get(0).data();
        assertThat(f.rank()).isEqualTo(8); // node rank 2 (the completion index, torchrun's PET_NODE_RANK) × 4 per node
        assertThat(f.node()).isEqualTo("gpu-node-2");
        assertThat(f.exitCode()).isEqualTo(137);
        assertThat(f.error()).startsWith("OOMKilled").endsWith("(container node)");

        // An initializer's pod belongs to the TrainJob but is no trainer node: its failure has no rank.
        Pod init = client.pods()
                .resource(jobSetPod(NAME, "dataset-initializer", 0))
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> training.pod(NS, init.getMetadata().getName()) != null);
        init.getStatus().setContainerStatuses(oomKilled());
        client.pods().resource(init).updateStatus();
        Thread.sleep(500);
        assertThat(out.of(JOB, EventType.TRAINER_WORKER_FAILED)).hasSize(1);

        client.pods().inNamespace(NS).withName(pod.getMetadata().getName()).delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> training.pod(NS, pod.getMetadata().getName()) == null);
        assertThat(hosts.nodeFor("kueue-example-node-0-2")).isEqualTo("kueue-example-node-0-2");
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void aJobSetThatIsNoTrainJobIsNotFollowedAndPyTorchJobPodsAreAsBefore() throws Exception {
        trainJob();
        Pod other = client.pods().resource(jobSetPod("plain-jobset", "node", 0)).create();
        Pod worker = client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-1")
                        .withNamespace(NS)
                        .addToLabels(PodWatcher.JOB_LABEL, "elastic-example-echo")
                        .addToLabels(PodWatcher.REPLICA_TYPE, "worker")
                        .addToLabels(PodWatcher.REPLICA_INDEX, "1")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-node-1")
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.pod(NS, "echo-worker-1") != null);
        assertThat(training.pod(NS, "echo-worker-1").job()).isEqualTo(NS + "/elastic-example-echo");

        other.getStatus().setContainerStatuses(oomKilled());
        client.pods().resource(other).updateStatus();
        worker.getStatus().setContainerStatuses(oomKilled());
        client.pods().resource(worker).updateStatus();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(NS + "/elastic-example-echo", EventType.TRAINER_WORKER_FAILED)
                                .size()
                        == 1);
        TrainerData.WorkerFailed f =
                (TrainerData.WorkerFailed) out.of(NS + "/elastic-example-echo", EventType.TRAINER_WORKER_FAILED)
                        .get(0)
                        .data();
        assertThat(f.rank()).isEqualTo(1); // an unknown PyTorchJob: no Master, one process per node
        Thread.sleep(300);
        assertThat(training.pod(NS, other.getMetadata().getName())).isNull();
        assertThat(out.of(EventType.TRAINER_WORKER_FAILED)).hasSize(1);
    }
}
