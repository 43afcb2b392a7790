package io.lifeline.connector.inbound.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.ProgressView;
import io.lifeline.domain.job.hang.HangVerdict;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.testing.Fixtures;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A TrainJob's {@code trainerStatus} and its JobSet's restart counters against the fabric8 mock API server (CRUD mode),
 * from Kubeflow Trainer's and JobSet's own sources, through to the job model: status updates are the progress of a job
 * without the agent (its freshness, its hang), and a JobSet restart starts an attempt that carries its counter.
 */
@EnableKubernetesMockClient(crud = true)
class TrainerStatusAndJobSetTest {

    private static final String JOB = "default/multi-node-example";

    KubernetesClient client;
    private final Captured out = new Captured();
    private final TrainingPods training = new TrainingPods();
    private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();

    @BeforeEach
    void watch() {
        crd("trainer.kubeflow.org", "trainjobs", "TrainJob", "v1alpha1");
        crd("jobset.x-k8s.io", "jobsets", "JobSet", "v1alpha2");
        informers.add(new TrainJobWatcher(out.ctx, training, null).start(client, 0));
        informers.add(new JobSetWatcher(out.ctx, training).start(client, 0));
        informers.forEach(i -> i.start().toCompletableFuture().join());
    }

    @AfterEach
    void stop() {
        informers.forEach(SharedIndexInformer::stop);
    }

    private void crd(String group, String plural, String kind, String version) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName(plural + "." + group)
                        .endMetadata()
                        .withNewSpec()
                        .withGroup(group)
                        .withScope("Namespaced")
                        .withNewNames()
                        .withPlural(plural)
                        .withKind(kind)
                        .endNames()
                        .addNewVersion()
                        .withName(version)
                        .withServed(true)
                        .withStorage(true)
                        .endVersion()
                        .endSpec()
                        .build())
                .create();
    }

    private GenericKubernetesResource load(String fixture) throws Exception {
        GenericKubernetesResource r = client.getKubernetesSerialization()
                .unmarshal(Files.readString(Fixtures.path(fixture)), GenericKubernetesResource.class);
        r.getMetadata().setNamespace("default");
        return r;
    }

    private GenericKubernetesResource create(GenericKubernetesResource r, ResourceDefinitionContext kind) {
        return client.genericKubernetesResources(kind)
                .inNamespace("default")
                .resource(r)
                .create();
    }

    private GenericKubernetesResource update(GenericKubernetesResource r, ResourceDefinitionContext kind) {
        return client.genericKubernetesResources(kind)
                .inNamespace("default")
                .resource(r)
                .update();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> trainerStatus(GenericKubernetesResource job) {
        Map<String, Object> status =
                (Map<String, Object>) job.getAdditionalProperties().get("status");
        return (Map<String, Object>) status.get("trainerStatus");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> statuses() throws Exception {
        return client.getKubernetesSerialization()
                .unmarshal(
                        Files.readString(Fixtures.path("k8s/jobset_status_restarts_controller_tests.yaml")), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> m, String... path) {
        Map<String, Object> v = m;
        for (String p : path) {
            v = (Map<String, Object>) v.get(p);
        }
        return new HashMap<>(v);
    }

    private static void report(GenericKubernetesResource job, Instant at, int percent) {
        Map<String, Object> s = new HashMap<>(trainerStatus(job));
        s.put("lastUpdatedTime", at.toString());
        s.put("progressPercentage", percent);
        @SuppressWarnings("unchecked")
        Map<String, Object> status =
                (Map<String, Object>) job.getAdditionalProperties().get("status");
        status.put("trainerStatus", s);
    }

    @Test
    void theKepSampleStatusIsAReportAndItsUpdatesAreTheProgressOfAJobWithoutTheAgent() throws Exception {
        GenericKubernetesResource job =
                create(load("k8s/trainjob_trainer_status_kep2779.yaml"), TrainJobWatcher.CONTEXT);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.TRAINER_STATUS).size() == 1);
        Event first = out.of(JOB, EventType.TRAINER_STATUS).get(0);
        TrainerData.StatusReport kep = (TrainerData.StatusReport) first.data();
        assertThat(first.time()).isEqualTo(Instant.parse("2025-01-23T10:30:45Z"));
        assertThat(first.id()).endsWith("/status/2025-01-23T10:30:45Z");
        assertThat(kep.percent()).isEqualTo(45);
        assertThat(kep.remainingSeconds()).isEqualTo(795_649L);
        assertThat(kep.loss()).isEqualTo(0.2347);
        // The sample's metrics name epochs, not steps: no step is made of them.
        assertThat(kep.step()).isNull();
        assertThat(kep.metrics())
                .extracting(TrainerData.Metric::name)
                .containsExactly("loss", "eval_loss", "accuracy", "currentEpoch", "totalEpochs");

        // The trainers report every minute from now on (times moved to now; the values are the sample's).
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < 4; i++) {
            report(job, base.plusSeconds(60L * i), 46 + i);
            job = update(job, TrainJobWatcher.CONTEXT);
        }
        // A change elsewhere repeats no report.
        job.getMetadata().setLabels(Map.of("team", "nlp"));
        update(job, TrainJobWatcher.CONTEXT);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(JOB, EventType.TRAINER_STATUS).size() == 5);
        Thread.sleep(300);
        assertThat(out.of(JOB, EventType.TRAINER_STATUS)).hasSize(5);

        JobDriver d = new JobDriver(JOB);
        d.clock.set(base);
        d.apply(out.of(JOB, EventType.JOB_SUBMITTED).get(0));
        // The sample's own report dates from 2025: history for a job submitted now, left out of the model.
        out.of(JOB, EventType.TRAINER_STATUS).stream().skip(1).forEach(d::apply);

        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.detail().progress().source()).isEqualTo(ProgressView.TRAINJOB_STATUS);
        assertThat(d.detail().progress().percent()).isEqualTo(49);
        assertThat(d.detail().summary().lastProgressAt()).isEqualTo(base.plusSeconds(180));

        d.clock.set(base.plusSeconds(300));
        assertThat(d.freshness().ageMillis()).isEqualTo(300_000L);
        assertThat(d.jobs.hang(JOB).orElseThrow().state()).isEqualTo(HangVerdict.OK);

        d.clock.set(base.plusSeconds(180 + 241));
        HangVerdict v = d.jobs.hang(JOB).orElseThrow();
        assertThat(v.suspected()).isTrue();
        assertThat(v.kind()).isEqualTo("status");
        assertThat(v.since()).isEqualTo(base.plusSeconds(180));
        assertThat(v.suspects()).isEmpty();
    }

    @Test
    void aJobSetRestartOfAWatchedTrainJobStartsAnAttemptThatCarriesItsCounter() throws Exception {
        GenericKubernetesResource job =
                create(load("k8s/trainjob_trainer_status_kep2779.yaml"), TrainJobWatcher.CONTEXT);
        // JobSet's own example, named and owned as Trainer makes a TrainJob's JobSet, with the status its controller
        // test starts from: one restart, long over (history, not reported).
        GenericKubernetesResource js = load("k8s/jobset_restartjobset_action.yaml");
        js.getMetadata().setName("multi-node-example");
        js.getMetadata()
                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion("trainer.kubeflow.org/v1alpha1")
                        .withKind("TrainJob")
                        .withName("multi-node-example")
                        .withUid(job.getMetadata().getUid())
                        .withController(true)
                        .build()));
        js.getAdditionalProperties().put("status", at(statuses(), "recreate", "before"));
        js = create(js, JobSetWatcher.CONTEXT);
        // A JobSet of the same example that runs no watched training job is left alone, restarts or not.
        GenericKubernetesResource bare = load("k8s/jobset_restartjobset_action.yaml");
        bare.getAdditionalProperties().put("status", at(statuses(), "recreate", "after"));
        create(bare, JobSetWatcher.CONTEXT);

        js.getAdditionalProperties().put("status", at(statuses(), "recreate", "after"));
        js = update(js, JobSetWatcher.CONTEXT);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.JOB_RESTARTED).size() == 1);
        Event restart = out.of(EventType.JOB_RESTARTED).get(0);
        assertThat(restart.subject()).isEqualTo(JOB);
        assertThat(restart.id()).endsWith("/restart/2");
        assertThat(restart.data())
                .isEqualTo(new JobData.Restarted("jobset", "recreate", 2, 1, 2, 3, "FailurePolicy_Rule1"));

        // The in-place restart strategy: the first restart (pods at 0 and 1), then every pod at 1.
        Map<String, Object> status = at(statuses(), "recreate", "after");
        status.putAll(at(statuses(), "inPlace", "restarting"));
        js.getAdditionalProperties().put("status", status);
        js = update(js, JobSetWatcher.CONTEXT);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> out.of(EventType.JOB_RESTARTED).size() == 2);
        JobData.Restarted inPlace =
                (JobData.Restarted) out.of(EventType.JOB_RESTARTED).get(1).data();
        assertThat(inPlace.kind()).isEqualTo("in-place");
        assertThat(inPlace.attempt()).isEqualTo(1);
        status.putAll(at(statuses(), "inPlace", "restarted"));
        js.getAdditionalProperties().put("status", status);
        update(js, JobSetWatcher.CONTEXT);
        Thread.sleep(500);
        assertThat(out.of(EventType.JOB_RESTARTED)).hasSize(2);

        // Into the model: a job without the agent, trained by its status, restarted by its JobSet.
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
        JobDriver d = new JobDriver(JOB);
        d.clock.set(base);
        d.apply(out.of(JOB, EventType.JOB_SUBMITTED).get(0));
        d.apply(statusAt(base.plusSeconds(60)));
        d.apply(restart);
        assertThat(d.incidents()).hasSize(1);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.UNKNOWN);
        d.apply(statusAt(Instant.now().plusSeconds(5)));
        List<Attempt> attempts = d.jobs.attempts(JOB).orElseThrow();
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(1).restart()).isEqualTo("JobSet restart 2 (2 of maxRestarts 3): FailurePolicy_Rule1");
    }

    /** A status report as the TrainJob watcher sends it: at its own time, with an id made of it. */
    private static Event statusAt(Instant at) {
        return new Event(
                "trainjob/test/status/" + at,
                "test",
                EventType.TRAINER_STATUS,
                JOB,
                at,
                new TrainerData.StatusReport(at, 50, null, null, null, null, List.of()));
    }
}
