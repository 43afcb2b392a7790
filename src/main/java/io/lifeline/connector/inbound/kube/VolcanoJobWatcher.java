package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Volcano Jobs ({@code batch.volcano.sh/v1alpha1 jobs}) into job events: first sight → {@code job.submitted}
 * (nodes from {@code spec.minAvailable} to the sum of the tasks' replicas, one process per pod, restarts from
 * {@code spec.maxRetry}, GPUs per pod from the first task's limits, {@code spec.priorityClassName}); phase
 * {@code Completed} → {@code job.finished} succeeded, {@code Failed} → failed, {@code Aborted} or
 * {@code Terminated} → cancelled (id from the phase).
 */
final class VolcanoJobWatcher extends CustomResourceWatcher {

    static final String CONNECTOR = "volcano-job";
    static final String CRD = "jobs.batch.volcano.sh";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("batch.volcano.sh")
            .withVersion("v1alpha1")
            .withPlural("jobs")
            .withKind("Job")
            .withNamespaced(true)
            .build();
    private static final Map<String, JobData.Outcome> ENDS = Map.of(
            "completed",
            JobData.Outcome.SUCCEEDED,
            "failed",
            JobData.Outcome.FAILED,
            "aborted",
            JobData.Outcome.CANCELLED,
            "terminated",
            JobData.Outcome.CANCELLED);

    VolcanoJobWatcher(KubeContext ctx) {
        super(ctx, CONNECTOR, CONTEXT);
    }

    @Override
    Translation changes(GenericKubernetesResource old, GenericKubernetesResource job, Instant now) {
        List<Event> out = new ArrayList<>();
        String subject = KubeContext.job(
                job.getMetadata().getNamespace(), job.getMetadata().getName());
        String uid = KubeContext.uid(job);
        if (old == null) {
            int replicas = 0;
            int gpus = 0;
            List<?> tasks = Generic.list(job, "spec", "tasks");
            for (int i = 0; i < tasks.size(); i++) {
                if (tasks.get(i) instanceof Map<?, ?> task) {
                    Integer r = Generic.integer(task.get("replicas"));
                    replicas += r == null ? 1 : Math.max(0, r);
                    if (i == 0) {
                        gpus = Generic.gpus(task.get("template"));
                    }
                }
            }
            Integer minAvailable = Generic.integer(job, "spec", "minAvailable");
            int min = Math.max(1, minAvailable == null ? Math.max(1, replicas) : minAvailable);
            int max = Math.max(min, replicas);
            Integer retry = Generic.integer(job, "spec", "maxRetry");
            String ns = job.getMetadata().getNamespace() == null
                    ? "default"
                    : job.getMetadata().getNamespace();
            out.add(new Event(
                    "vcjob/" + uid + "/submitted",
                    ctx.source,
                    EventType.JOB_SUBMITTED,
                    subject,
                    KubeContext.created(job, now),
                    new JobData.Submitted(
                            ns,
                            null,
                            Generic.string(job, "spec", "priorityClassName"),
                            new ElasticPolicy(
                                    Math.min(min, 100_000),
                                    Math.min(max, 100_000),
                                    1,
                                    Math.max(0, retry == null ? 3 : retry)),
                            gpus,
                            null,
                            TorchFt.of(job))));
        }
        String phase = Generic.string(job, "status", "state", "phase");
        String before = old == null ? null : Generic.string(old, "status", "state", "phase");
        JobData.Outcome end = phase == null ? null : ENDS.get(phase.toLowerCase(Locale.ROOT));
        if (end != null && !Objects.equals(phase, before)) {
            Instant at = KubeContext.time(Generic.string(job, "status", "state", "lastTransitionTime"), now);
            out.add(new Event(
                    "vcjob/" + uid + "/finished/" + phase,
                    ctx.source,
                    EventType.JOB_FINISHED,
                    subject,
                    at,
                    new JobData.Finished(
                            end,
                            KubeContext.reason(
                                    Generic.string(job, "status", "state", "reason"),
                                    Generic.string(job, "status", "state", "message")))));
        }
        return Translation.of(out);
    }
}
