package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.connector.EventContract;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.Fixtures;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The PyTorchJob, Pod, Event, Kueue Workload and Volcano Job wrappers against the fabric8 mock API server. */
@EnableKubernetesMockClient(crud = true)
class TrainingWatchersTest {

    private static final String NS = "team-k";
    private static final String JOB = NS + "/elastic-example-echo";

    KubernetesClient client;
    private final Captured out = new Captured();
    private final TrainingPods training = new TrainingPods();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    @BeforeEach
    void watch() {
        informers.add(new PyTorchJobWatcher(out.ctx, training, null).start(client, 0));
        informers.add(new PodWatcher(out.ctx, training, null).start(client, 0));
        informers.add(new EventWatcher(out.ctx, training).start(client, 0));
        informers.add(new KueueWorkloadWatcher(out.ctx).start(client, 0));
        informers.add(new VolcanoJobWatcher(out.ctx).start(client, 0));
        informers.forEach(i -> i.start().toCompletableFuture().join());
    }

    @AfterEach
    void stop() {
        informers.forEach(SharedIndexInformer::stop);
    }

    private GenericKubernetesResource echoJob() throws Exception {
        try (InputStream in = Files.newInputStream(Fixtures.path("k8s/pytorchjob_elastic_echo.yaml"))) {
            GenericKubernetesResource job =
                    client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
            job.getMetadata().setNamespace(NS);
            return client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                    .inNamespace(NS)
                    .resource(job)
                    .create();
        }
    }

    private static Pod worker(String name, int index) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .addToLabels(PodWatcher.JOB_LABEL, "elastic-example-echo")
                .addToLabels(PodWatcher.REPLICA_TYPE, "worker")
                .addToLabels(PodWatcher.REPLICA_INDEX, String.valueOf(index))
                .endMetadata()
                .withNewSpec()
                .withNodeName("gpu-node-" + index)
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
    }

    @Test
    void theElasticEchoJobIsSubmittedUpdatedAndFinished() throws Exception {
        echoJob();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_SUBMITTED).size() == 1);
        Event submitted = out.of(JOB, EventType.JOB_SUBMITTED).get(0);
        assertThat(submitted.data())
                .isEqualTo(
                        new JobData.Submitted(NS, null, null, new ElasticPolicy(1, 2, 1, 100, "c10d", null), 0, null));

        GenericKubernetesResource job = client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .withName("elastic-example-echo")
                .get();
        @SuppressWarnings("unchecked")
        Map<String, Object> policy = (Map<String, Object>)
                ((Map<String, Object>) job.getAdditionalProperties().get("spec")).get("elasticPolicy");
        policy.put("maxReplicas", 4);
        policy.put("nProcPerNode", 8);
        job = client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_UPDATED).size() == 1);
        assertThat(out.of(JOB, EventType.JOB_UPDATED).get(0).data())
                .isEqualTo(new JobData.Updated(null, new ElasticPolicy(1, 4, 8, 100, "c10d", null), null, null));
        assertThat(training.job(JOB).procsPerNode()).isEqualTo(8);

        Map<String, Object> status = new HashMap<>();
        status.put(
                "conditions",
                List.of(
                        Map.of("type", "Created", "status", "True", "lastTransitionTime", "2026-03-01T10:00:00Z"),
                        Map.of(
                                "type",
                                "Succeeded",
                                "status",
                                "True",
                                "reason",
                                "PyTorchJobSucceeded",
                                "message",
                                "PyTorchJob elastic-example-echo is successfully completed.",
                                "lastTransitionTime",
                                "2026-03-01T11:00:00Z")));
        job.getAdditionalProperties().put("status", status);
        client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_FINISHED).size() == 1);
        assertThat(out.of(JOB, EventType.JOB_FINISHED).get(0).data())
                .isEqualTo(new JobData.Finished(
                        JobData.Outcome.SUCCEEDED,
                        "PyTorchJobSucceeded: PyTorchJob elastic-example-echo is successfully completed."));

        client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .withName("elastic-example-echo")
                .delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.job(JOB) == null);
        assertThat(out.of(JOB, EventType.JOB_FINISHED)).hasSize(1);
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void aJobDeletedBeforeItFinishedIsCancelledAndSuspendIsRequeueThenAdmit() throws Exception {
        GenericKubernetesResource job = echoJob();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_SUBMITTED).size() == 1);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) job.getAdditionalProperties().get("spec");
        spec.put("runPolicy", new HashMap<>(Map.of("suspend", true)));
        job = client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.WORKLOAD_REQUEUED).size() == 1);
        spec = castSpec(job);
        spec.put("runPolicy", new HashMap<>(Map.of("suspend", false)));
        client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.WORKLOAD_ADMITTED).size() == 1);

        client.genericKubernetesResources(PyTorchJobWatcher.CONTEXT)
                .inNamespace(NS)
                .withName("elastic-example-echo")
                .delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.JOB_FINISHED).size() == 1);
        assertThat(((JobData.Finished)
                                out.of(JOB, EventType.JOB_FINISHED).get(0).data())
                        .outcome())
                .isEqualTo(JobData.Outcome.CANCELLED);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castSpec(GenericKubernetesResource job) {
        return (Map<String, Object>) job.getAdditionalProperties().get("spec");
    }

    @Test
    void anOomKilledWorkerIsAWorkerFailureAtItsFirstRank() throws Exception {
        echoJob();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.job(JOB) != null);
        Pod pod = client.pods().resource(worker("echo-worker-1", 1)).create();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.pod(NS, "echo-worker-1") != null);
        pod.getStatus()
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
                        .withNewState()
                        .withNewRunning()
                        .endRunning()
                        .endState()
                        .build()));
        client.pods().resource(pod).updateStatus();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.TRAINER_WORKER_FAILED).size() == 1);
        TrainerData.WorkerFailed f = (TrainerData.WorkerFailed)
                out.of(JOB, EventType.TRAINER_WORKER_FAILED).get(0).data();
        assertThat(f.rank()).isEqualTo(1); // no Master replica, one process per node: worker 1 is rank 1
        assertThat(f.node()).isEqualTo("gpu-node-1");
        assertThat(f.exitCode()).isEqualTo(137);
        assertThat(f.error()).startsWith("OOMKilled");

        // An unrelated update of the same pod reports the same failure no more.
        pod = client.pods().inNamespace(NS).withName("echo-worker-1").get();
        pod.getMetadata().getLabels().put("touched", "yes");
        client.pods().resource(pod).update();
        Thread.sleep(500);
        assertThat(out.of(JOB, EventType.TRAINER_WORKER_FAILED)).hasSize(1);

        // A deleted pod is forgotten (its Events no longer name a job).
        client.pods().inNamespace(NS).withName("echo-worker-1").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.pod(NS, "echo-worker-1") == null);
    }

    @Test
    void anEvictionSeenInThePodAndInItsEventsIsOneEvictionAndFailedSchedulingIsARequeue() throws Exception {
        Pod pod = client.pods().resource(worker("echo-worker-0", 0)).create();
        await().atMost(Duration.ofSeconds(10)).until(() -> training.pod(NS, "echo-worker-0") != null);
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0.preempted")
                        .withNamespace(NS)
                        .endMetadata()
                        .withReason("Preempted")
                        .withType("Normal")
                        .withMessage("Preempted by pod 7f7c0d2e-8f5b-4b8e-9a7a-1b2c3d4e5f60 on node gpu-node-0")
                        .withLastTimestamp("2026-03-01T10:40:00Z")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName("echo-worker-0")
                        .withNamespace(NS)
                        .withUid(pod.getMetadata().getUid())
                        .endInvolvedObject()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.POD_EVICTED).size() == 1);
        Event fromEvent = out.of(JOB, EventType.POD_EVICTED).get(0);
        assertThat(((SchedulerData.PodEvicted) fromEvent.data()).reason()).startsWith("Preempted: Preempted by pod");

        pod.getStatus()
                .setConditions(List.of(new PodConditionBuilder()
                        .withType("DisruptionTarget")
                        .withStatus("True")
                        .withReason("PreemptionByScheduler")
                        .build()));
        client.pods().resource(pod).updateStatus();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.POD_EVICTED).size() == 2);
        assertThat(out.of(JOB, EventType.POD_EVICTED)).extracting(Event::id).containsOnly(fromEvent.id());

        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0.restart")
                        .withNamespace(NS)
                        .endMetadata()
                        .withReason("Killing")
                        .withMessage("Container pytorch failed liveness probe, will be restarted")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName("echo-worker-0")
                        .withNamespace(NS)
                        .endInvolvedObject()
                        .build())
                .create();
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("echo-worker-0.unschedulable")
                        .withNamespace(NS)
                        .endMetadata()
                        .withReason("FailedScheduling")
                        .withType("Warning")
                        .withMessage("0/8 nodes are available: 8 Insufficient nvidia.com/gpu.")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName("echo-worker-0")
                        .withNamespace(NS)
                        .endInvolvedObject()
                        .build())
                .create();
        client.v1()
                .events()
                .inNamespace(NS)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("other.preempted")
                        .withNamespace(NS)
                        .endMetadata()
                        .withReason("Preempted")
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withName("not-a-training-pod")
                        .withNamespace(NS)
                        .endInvolvedObject()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.WORKLOAD_REQUEUED).size() == 1);
        assertThat(((SchedulerData.Requeued)
                                out.of(JOB, EventType.WORKLOAD_REQUEUED).get(0).data())
                        .reason())
                .isEqualTo(
                        "FailedScheduling: pod echo-worker-0: 0/8 nodes are available: 8 Insufficient nvidia.com/gpu.");
        Thread.sleep(300);
        assertThat(out.of(EventType.POD_EVICTED)).hasSize(2);
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void kueueAdmissionAndPreemptionOfTheJobsWorkload() {
        String wlJob = NS + "/trainer-42";
        GenericKubernetesResource wl = new GenericKubernetesResource();
        wl.setApiVersion("kueue.x-k8s.io/v1beta1");
        wl.setKind("Workload");
        wl.setMetadata(new ObjectMetaBuilder()
                .withName("pytorchjob-trainer-42-3f1e2")
                .withNamespace(NS)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withName("trainer-42")
                        .withUid("0c7c2b1a")
                        .withController(true)
                        .build())
                .build());
        wl.setAdditionalProperty("spec", Map.of("queueName", "team-k-queue", "priority", 100));
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
                                "2026-03-01T10:00:00Z"))));
        wl = client.genericKubernetesResources(KueueWorkloadWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(wl)
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(wlJob, EventType.WORKLOAD_ADMITTED).size() == 1);
        assertThat(out.of(wlJob, EventType.WORKLOAD_ADMITTED).get(0).data())
                .isEqualTo(new SchedulerData.Admitted("pytorchjob-trainer-42-3f1e2", "gpu-cq"));

        String message =
                "Preempted to accommodate a workload (UID: 5b1f0e4c-1c1f, JobUID: 9d2a) due to prioritization in "
                        + "the ClusterQueue";
        wl.setAdditionalProperty(
                "status",
                Map.of(
                        "conditions",
                        List.of(
                                Map.of(
                                        "type",
                                        "Admitted",
                                        "status",
                                        "False",
                                        "reason",
                                        "NoReservation",
                                        "lastTransitionTime",
                                        "2026-03-01T11:00:00Z"),
                                Map.of(
                                        "type",
                                        "Evicted",
                                        "status",
                                        "True",
                                        "reason",
                                        "Preempted",
                                        "message",
                                        message,
                                        "lastTransitionTime",
                                        "2026-03-01T11:00:00Z"),
                                Map.of(
                                        "type",
                                        "Preempted",
                                        "status",
                                        "True",
                                        "reason",
                                        "InClusterQueue",
                                        "message",
                                        message,
                                        "lastTransitionTime",
                                        "2026-03-01T11:00:00Z"))));
        client.genericKubernetesResources(KueueWorkloadWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(wl)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(wlJob, EventType.WORKLOAD_PREEMPTED).size() == 2);
        List<Event> preempted = out.of(wlJob, EventType.WORKLOAD_PREEMPTED);
        assertThat(preempted)
                .extracting(Event::id)
                .containsOnly(preempted.get(0).id()); // one preemption for the dedupe
        SchedulerData.Preempted p = (SchedulerData.Preempted) preempted.get(0).data();
        assertThat(p.preemptor()).isEqualTo("5b1f0e4c-1c1f");
        assertThat(p.priority()).isEqualTo(100);
        EventContract.assertRoundTrips(out.all());
    }

    @Test
    void aCompletedVolcanoJobFinishes() {
        String vcJob = NS + "/mpi-train";
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setApiVersion("batch.volcano.sh/v1alpha1");
        job.setKind("Job");
        job.setMetadata(
                new ObjectMetaBuilder().withName("mpi-train").withNamespace(NS).build());
        job.setAdditionalProperty(
                "spec",
                Map.of(
                        "minAvailable",
                        2,
                        "maxRetry",
                        5,
                        "tasks",
                        List.of(Map.of(
                                "name",
                                "worker",
                                "replicas",
                                4,
                                "template",
                                Map.of(
                                        "spec",
                                        Map.of(
                                                "containers",
                                                List.of(Map.of(
                                                        "name",
                                                        "w",
                                                        "resources",
                                                        Map.of("limits", Map.of("nvidia.com/gpu", 8))))))))));
        job = client.genericKubernetesResources(VolcanoJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(vcJob, EventType.JOB_SUBMITTED).size() == 1);
        assertThat(out.of(vcJob, EventType.JOB_SUBMITTED).get(0).data())
                .isEqualTo(new JobData.Submitted(NS, null, null, new ElasticPolicy(2, 4, 1, 5), 8, null));
        job.setAdditionalProperty(
                "status", Map.of("state", Map.of("phase", "Completed", "lastTransitionTime", "2026-03-01T12:00:00Z")));
        client.genericKubernetesResources(VolcanoJobWatcher.CONTEXT)
                .inNamespace(NS)
                .resource(job)
                .update();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(vcJob, EventType.JOB_FINISHED).size() == 1);
        assertThat(((JobData.Finished)
                                out.of(vcJob, EventType.JOB_FINISHED).get(0).data())
                        .outcome())
                .isEqualTo(JobData.Outcome.SUCCEEDED);
    }
}
