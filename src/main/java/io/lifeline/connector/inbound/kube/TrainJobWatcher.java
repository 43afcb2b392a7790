package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.pipeline.ConnectorJobResolver;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kubeflow Trainer v2 TrainJobs ({@code trainer.kubeflow.org/v1alpha1 trainjobs}, run on JobSet; read as generic
 * resources) into job events, as {@link PyTorchJobWatcher} does for PyTorchJobs:
 * <ul>
 *   <li>first sight → {@code job.submitted}: a fixed size of {@code spec.trainer.numNodes} nodes (1 when absent;
 *       a TrainJob has no elastic range of its own), processes per node from {@code spec.trainer.numProcPerNode}
 *       (a number; {@code auto} or absent: the GPUs per node, else 1), GPUs per node from
 *       {@code spec.trainer.resourcesPerNode.limits}, priority class from the Kueue label
 *       {@code kueue.x-k8s.io/priority-class};</li>
 *   <li>a change of any of those (a rescale: {@code numNodes}) → {@code job.updated} with the changed fields;</li>
 *   <li>condition {@code Complete} or {@code Failed} true → {@code job.finished}; deleted before finishing →
 *       {@code job.finished} cancelled;</li>
 *   <li>{@code spec.suspend} turned on → {@code workload.requeued}; turned off → {@code workload.admitted};</li>
 *   <li>a {@code status.trainerStatus} with a new {@code lastUpdatedTime} (first sight included) →
 *       {@code trainer.status} ({@link TrainerStatusReports}), at that time and with an id made of it, so a resync or a
 *       re-list repeats the same event.</li>
 * </ul>
 */
final class TrainJobWatcher extends TrainingJobWatcher {

    static final String CONNECTOR = "trainjob";
    static final String CRD = "trainjobs.trainer.kubeflow.org";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("trainer.kubeflow.org")
            .withVersion("v1alpha1")
            .withPlural("trainjobs")
            .withKind("TrainJob")
            .withNamespaced(true)
            .build();
    /** Nodes and processes are capped as the PyTorchJob watcher caps them. */
    private static final int MAX_NODES = 100_000;

    private static final int MAX_PROCS = 1024;

    TrainJobWatcher(KubeContext ctx, TrainingPods training, ConnectorJobResolver jobs) {
        super(ctx, training, jobs, CONNECTOR, CONTEXT);
    }

    @Override
    TrainingPods.Job trainingJob(GenericKubernetesResource job) {
        Facts f = facts(job);
        Integer ppn = f.elastic == null ? null : f.elastic.procsPerNode();
        return new TrainingPods.Job(ppn, false, finished(job) != null, true);
    }

    @Override
    Translation added(GenericKubernetesResource job, Instant now) {
        Facts f = facts(job);
        if (f.elastic == null) {
            return Translation.rejected("invalid_trainer", f.problem);
        }
        List<Event> out = new ArrayList<>();
        out.add(event(
                job,
                "submitted",
                EventType.JOB_SUBMITTED,
                KubeContext.created(job, now),
                new JobData.Submitted(
                        namespace(job), null, f.priorityClass, f.elastic, f.gpusPerNode, null, TorchFt.of(job))));
        TrainerData.StatusReport report = TrainerStatusReports.of(job);
        if (report != null) {
            out.add(statusEvent(job, report));
        }
        Generic.Condition end = finished(job);
        if (end != null) {
            out.add(finishedEvent(job, end, now));
        }
        return Translation.of(out);
    }

    @Override
    Translation updated(GenericKubernetesResource old, GenericKubernetesResource job, Instant now) {
        List<Event> out = new ArrayList<>();
        Facts before = facts(old);
        Facts f = facts(job);
        String rv = KubeContext.resourceVersion(job);
        if (f.elastic != null && !f.sameAs(before)) {
            out.add(event(
                    job,
                    "updated/" + rv,
                    EventType.JOB_UPDATED,
                    now,
                    new JobData.Updated(
                            Objects.equals(f.priorityClass, before.priorityClass) ? null : f.priorityClass,
                            Objects.equals(f.elastic, before.elastic) ? null : f.elastic,
                            f.gpusPerNode == before.gpusPerNode ? null : f.gpusPerNode,
                            null)));
        }
        boolean suspended = Generic.bool(job, "spec", "suspend");
        if (suspended != Generic.bool(old, "spec", "suspend")) {
            out.add(
                    suspended
                            ? event(
                                    job,
                                    "suspended/" + rv,
                                    EventType.WORKLOAD_REQUEUED,
                                    now,
                                    new SchedulerData.Requeued("suspended (spec.suspend)"))
                            : event(
                                    job,
                                    "resumed/" + rv,
                                    EventType.WORKLOAD_ADMITTED,
                                    now,
                                    new SchedulerData.Admitted(
                                            job.getMetadata().getName(), label(job, "kueue.x-k8s.io/queue-name"))));
        }
        TrainerData.StatusReport report = TrainerStatusReports.of(job);
        TrainerData.StatusReport reportBefore = TrainerStatusReports.of(old);
        if (report != null && (reportBefore == null || !report.reportedAt().equals(reportBefore.reportedAt()))) {
            out.add(statusEvent(job, report));
        }
        Generic.Condition end = finished(job);
        Generic.Condition endBefore = finished(old);
        if (end != null
                && (endBefore == null
                        || !Objects.equals(end.lastTransitionTime(), endBefore.lastTransitionTime())
                        || !Objects.equals(end.type(), endBefore.type()))) {
            out.add(finishedEvent(job, end, now));
        }
        List<Translation.Rejection> rejections = f.elastic == null && before.elastic != null
                ? List.of(new Translation.Rejection("invalid_trainer", f.problem))
                : List.of();
        return new Translation(out, rejections);
    }

    @Override
    Translation deleted(GenericKubernetesResource job, Instant now) {
        if (finished(job) != null) {
            return Translation.empty();
        }
        return Translation.of(List.of(event(
                job,
                "finished/deleted",
                EventType.JOB_FINISHED,
                KubeContext.time(job.getMetadata().getDeletionTimestamp(), now),
                new JobData.Finished(JobData.Outcome.CANCELLED, "TrainJob deleted before it finished"))));
    }

    private Event finishedEvent(GenericKubernetesResource job, Generic.Condition end, Instant now) {
        JobData.Outcome outcome = "Complete".equals(end.type()) ? JobData.Outcome.SUCCEEDED : JobData.Outcome.FAILED;
        String since = end.lastTransitionTime() != null ? end.lastTransitionTime() : KubeContext.resourceVersion(job);
        return event(
                job,
                "finished/" + end.type() + "/" + since,
                EventType.JOB_FINISHED,
                KubeContext.time(end.lastTransitionTime(), now),
                new JobData.Finished(outcome, KubeContext.reason(end.reason(), end.message())));
    }

    private Event statusEvent(GenericKubernetesResource job, TrainerData.StatusReport report) {
        return event(job, "status/" + report.reportedAt(), EventType.TRAINER_STATUS, report.reportedAt(), report);
    }

    /** The Complete or Failed condition when true, else null. */
    static Generic.Condition finished(GenericKubernetesResource job) {
        for (Generic.Condition c : Generic.conditions(job)) {
            if (c.isTrue() && ("Complete".equals(c.type()) || "Failed".equals(c.type()))) {
                return c;
            }
        }
        return null;
    }

    private Event event(GenericKubernetesResource job, String what, EventType type, Instant time, EventData data) {
        return new Event(
                "trainjob/" + KubeContext.uid(job) + "/" + what,
                ctx.source,
                type,
                KubeContext.job(
                        job.getMetadata().getNamespace(), job.getMetadata().getName()),
                time,
                data);
    }

    private static String namespace(GenericKubernetesResource job) {
        String ns = job.getMetadata().getNamespace();
        return ns == null || ns.isBlank() ? "default" : ns;
    }

    private static String label(GenericKubernetesResource job, String key) {
        Map<String, String> labels = job.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    /** The settings a TrainJob runs with; {@code elastic} null (with {@code problem}) when they make no policy. */
    static Facts facts(GenericKubernetesResource job) {
        Integer nodes = Generic.integer(job, "spec", "trainer", "numNodes");
        Object limits = Generic.at(job, "spec", "trainer", "resourcesPerNode", "limits");
        Integer gpu = limits instanceof Map<?, ?> l ? Generic.integer(l.get("nvidia.com/gpu")) : null;
        if (gpu == null && limits instanceof Map<?, ?> l) {
            gpu = Generic.integer(l.get("amd.com/gpu"));
        }
        int gpus = gpu == null ? 0 : Math.max(0, gpu);
        Integer ppn = Generic.integer(job, "spec", "trainer", "numProcPerNode");
        int procs = ppn != null ? ppn : Math.max(1, gpus);
        String priority = label(job, "kueue.x-k8s.io/priority-class");
        int n = nodes == null ? 1 : nodes;
        try {
            ElasticPolicy fixed =
                    new ElasticPolicy(Math.min(n, MAX_NODES), Math.min(n, MAX_NODES), Math.min(procs, MAX_PROCS), 0);
            return new Facts(fixed, priority, gpus, null);
        } catch (IllegalArgumentException e) {
            return new Facts(null, priority, gpus, job.getMetadata().getName() + ": " + e.getMessage());
        }
    }

    /** What {@code job.submitted} and {@code job.updated} carry. */
    record Facts(ElasticPolicy elastic, String priorityClass, int gpusPerNode, String problem) {
        boolean sameAs(Facts o) {
            return Objects.equals(elastic, o.elastic)
                    && Objects.equals(priorityClass, o.priorityClass)
                    && gpusPerNode == o.gpusPerNode;
        }
    }
}
