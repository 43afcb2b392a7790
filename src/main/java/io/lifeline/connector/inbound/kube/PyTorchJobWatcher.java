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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kubeflow PyTorchJobs ({@code kubeflow.org/v1 pytorchjobs}, read as generic resources) into job events:
 * <ul>
 *   <li>first sight → {@code job.submitted}: elastic policy from {@code spec.elasticPolicy} (minReplicas,
 *       maxReplicas, nProcPerNode or {@code spec.nprocPerNode} (a number, or a numeric string; {@code auto},
 *       {@code gpu}, {@code cpu}: the GPUs per node, at least 1), maxRestarts, the rendezvous backend
 *       {@code rdzvBackend}, and the HPA {@code metrics} that scale it, in words); a job without one is a fixed size
 *       (Master + Worker replicas, restarts from {@code runPolicy.backoffLimit}); GPUs per node from the Worker
 *       template's limits; priority class from {@code runPolicy.schedulingPolicy.priorityClass} or the template;</li>
 *   <li>a change of any of those → {@code job.updated} with the changed fields;</li>
 *   <li>condition {@code Succeeded} or {@code Failed} true → {@code job.finished} (id from its transition time);
 *       deleted before finishing → {@code job.finished} cancelled;</li>
 *   <li>{@code runPolicy.suspend} turned on → {@code workload.requeued}; turned off → {@code workload.admitted}.</li>
 * </ul>
 * Watched jobs also tell the torchelastic connector their run id (the job name) and processes per node.
 */
final class PyTorchJobWatcher extends TrainingJobWatcher {

    static final String CONNECTOR = "pytorchjob";
    static final String CRD = "pytorchjobs.kubeflow.org";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withPlural("pytorchjobs")
            .withKind("PyTorchJob")
            .withNamespaced(true)
            .build();

    PyTorchJobWatcher(KubeContext ctx, TrainingPods training, ConnectorJobResolver jobs) {
        super(ctx, training, jobs, CONNECTOR, CONTEXT);
    }

    @Override
    TrainingPods.Job trainingJob(GenericKubernetesResource job) {
        Facts f = facts(job);
        Integer ppn = f.elastic == null ? null : f.elastic.procsPerNode();
        return new TrainingPods.Job(
                ppn, Generic.at(job, "spec", "pytorchReplicaSpecs", "Master") != null, finished(job) != null, false);
    }

    @Override
    Translation added(GenericKubernetesResource job, Instant now) {
        Facts f = facts(job);
        if (f.elastic == null) {
            return Translation.rejected("invalid_elastic_policy", f.problem);
        }
        List<Event> out = new ArrayList<>();
        out.add(event(
                job,
                "submitted",
                EventType.JOB_SUBMITTED,
                KubeContext.created(job, now),
                new JobData.Submitted(
                        namespace(job), null, f.priorityClass, f.elastic, f.gpusPerNode, null, TorchFt.of(job))));
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
        boolean suspended = Generic.bool(job, "spec", "runPolicy", "suspend");
        if (suspended != Generic.bool(old, "spec", "runPolicy", "suspend")) {
            out.add(
                    suspended
                            ? event(
                                    job,
                                    "suspended/" + rv,
                                    EventType.WORKLOAD_REQUEUED,
                                    now,
                                    new SchedulerData.Requeued("suspended (runPolicy.suspend)"))
                            : event(
                                    job,
                                    "resumed/" + rv,
                                    EventType.WORKLOAD_ADMITTED,
                                    now,
                                    new SchedulerData.Admitted(job.getMetadata().getName(), queue(job))));
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
                ? List.of(new Translation.Rejection("invalid_elastic_policy", f.problem))
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
                new JobData.Finished(JobData.Outcome.CANCELLED, "PyTorchJob deleted before it finished"))));
    }

    private Event finishedEvent(GenericKubernetesResource job, Generic.Condition end, Instant now) {
        JobData.Outcome outcome = "Succeeded".equals(end.type()) ? JobData.Outcome.SUCCEEDED : JobData.Outcome.FAILED;
        String since = end.lastTransitionTime() != null ? end.lastTransitionTime() : KubeContext.resourceVersion(job);
        return event(
                job,
                "finished/" + end.type() + "/" + since,
                EventType.JOB_FINISHED,
                KubeContext.time(end.lastTransitionTime(), now),
                new JobData.Finished(outcome, KubeContext.reason(end.reason(), end.message())));
    }

    /** The Succeeded or Failed condition when true, else null. */
    static Generic.Condition finished(GenericKubernetesResource job) {
        for (Generic.Condition c : Generic.conditions(job)) {
            if (c.isTrue() && ("Succeeded".equals(c.type()) || "Failed".equals(c.type()))) {
                return c;
            }
        }
        return null;
    }

    private Event event(GenericKubernetesResource job, String what, EventType type, Instant time, EventData data) {
        return new Event("pytorchjob/" + KubeContext.uid(job) + "/" + what, ctx.source, type, subject(job), time, data);
    }

    private static String subject(GenericKubernetesResource job) {
        return KubeContext.job(
                job.getMetadata().getNamespace(), job.getMetadata().getName());
    }

    private static String namespace(GenericKubernetesResource job) {
        String ns = job.getMetadata().getNamespace();
        return ns == null || ns.isBlank() ? "default" : ns;
    }

    private static String queue(GenericKubernetesResource job) {
        Map<String, String> labels = job.getMetadata().getLabels();
        return labels == null ? null : labels.get("kueue.x-k8s.io/queue-name");
    }

    /** The settings a job is submitted with; {@code elastic} null (with {@code problem}) when they make no policy. */
    static Facts facts(GenericKubernetesResource job) {
        Integer master = Generic.integer(job, "spec", "pytorchReplicaSpecs", "Master", "replicas");
        Integer worker = Generic.integer(job, "spec", "pytorchReplicaSpecs", "Worker", "replicas");
        int replicas =
                (master == null ? (Generic.at(job, "spec", "pytorchReplicaSpecs", "Master") != null ? 1 : 0) : master)
                        + (worker == null
                                ? (Generic.at(job, "spec", "pytorchReplicaSpecs", "Worker") != null ? 1 : 0)
                                : worker);
        Map<?, ?> ep = Generic.map(job, "spec", "elasticPolicy");
        Integer min = ep.isEmpty() ? null : Generic.integer(ep.get("minReplicas"));
        Integer max = ep.isEmpty() ? null : Generic.integer(ep.get("maxReplicas"));
        Integer ppn = Generic.integer(ep.get("nProcPerNode"));
        if (ppn == null) {
            ppn = Generic.integer(job, "spec", "nprocPerNode");
        }
        Integer restarts = Generic.integer(ep.get("maxRestarts"));
        if (restarts == null) {
            restarts = Generic.integer(job, "spec", "runPolicy", "backoffLimit");
        }
        Object template = Generic.at(
                job, "spec", "pytorchReplicaSpecs", worker != null || master == null ? "Worker" : "Master", "template");
        int gpus = Generic.gpus(template);
        int minNodes = min != null ? min : Math.max(1, replicas);
        int maxNodes = max != null ? max : Math.max(minNodes, replicas);
        int procs = ppn != null ? ppn : Math.max(1, gpus);
        String priority = Generic.string(job, "spec", "runPolicy", "schedulingPolicy", "priorityClass");
        if (priority == null && template instanceof Map<?, ?> t && t.get("spec") instanceof Map<?, ?> spec) {
            priority = Generic.str(spec.get("priorityClassName"));
        }
        String rdzv = abbreviate(Generic.str(ep.get("rdzvBackend")));
        String autoscaling = ep.get("metrics") instanceof List<?> metrics ? autoscaling(metrics) : null;
        try {
            ElasticPolicy elastic = new ElasticPolicy(
                    Math.min(minNodes, 100_000),
                    Math.min(maxNodes, 100_000),
                    Math.min(procs, 1024),
                    Math.max(0, Math.min(restarts == null ? 0 : restarts, 1_000_000)),
                    rdzv,
                    autoscaling);
            return new Facts(elastic, priority, gpus, null);
        } catch (IllegalArgumentException e) {
            return new Facts(null, priority, gpus, job.getMetadata().getName() + ": " + e.getMessage());
        }
    }

    /**
     * The HPA metrics of an elastic policy ({@code autoscaling/v2} MetricSpecs) in words, one per metric:
     * {@code cpu Utilization 80%}, {@code pods requests_per_second AverageValue 10}; null when there are none.
     */
    static String autoscaling(List<?> metrics) {
        List<String> parts = new ArrayList<>();
        for (Object o : metrics) {
            if (!(o instanceof Map<?, ?> m)) {
                continue;
            }
            String type = Generic.str(m.get("type"));
            Map<?, ?> source = type == null
                    ? Map.of()
                    : m.get(Character.toLowerCase(type.charAt(0)) + type.substring(1)) instanceof Map<?, ?> s
                            ? s
                            : Map.of();
            String what = Generic.str(source.get("name"));
            if (what == null && source.get("metric") instanceof Map<?, ?> metric) {
                what = Generic.str(metric.get("name"));
            }
            StringBuilder p = new StringBuilder();
            if (type != null && !"Resource".equals(type) && !"ContainerResource".equals(type)) {
                p.append(type.toLowerCase(java.util.Locale.ROOT)).append(' ');
            }
            p.append(what == null ? "?" : what);
            if (source.get("target") instanceof Map<?, ?> target) {
                String kind = Generic.str(target.get("type"));
                if (kind != null) {
                    p.append(' ').append(kind);
                }
                String util = Generic.str(target.get("averageUtilization"));
                String value = util != null
                        ? util + "%"
                        : Generic.str(target.get("averageValue")) != null
                                ? Generic.str(target.get("averageValue"))
                                : Generic.str(target.get("value"));
                if (value != null) {
                    p.append(' ').append(value);
                }
            }
            parts.add(p.toString());
        }
        return parts.isEmpty() ? null : abbreviate(String.join(", ", parts));
    }

    private static String abbreviate(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        return s.length() <= ElasticPolicy.MAX_TEXT ? s : s.substring(0, ElasticPolicy.MAX_TEXT - 3) + "...";
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
