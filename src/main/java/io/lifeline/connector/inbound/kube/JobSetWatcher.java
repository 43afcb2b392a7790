package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * JobSets ({@code jobset.x-k8s.io/v1alpha2 jobsets}, read as generic resources) into {@code job.restarted}, for the
 * JobSets that run a training job Lifeline knows: a TrainJob's (Trainer names its JobSet after it and owns it), or any
 * JobSet named after a watched training job. Other JobSets are not training jobs as far as Lifeline can tell (their pods
 * are not recognised either) and are left alone.
 * <ul>
 *   <li>{@code status.restarts} grew → {@code job.restarted} {@code recreate}: JobSet recreated all its Jobs (its
 *       {@code RestartJobSet} or {@code RestartJobSetAndIgnoreMaxRestarts} failure policy action), with
 *       {@code restartsCountTowardsMax}, {@code spec.failurePolicy.maxRestarts} and the {@code RestartingJobSet}
 *       condition's reason and message; at that condition's {@code lastTransitionTime} while it is true;</li>
 *   <li>{@code status.previousInPlaceRestartAttempt} grew (JobSet's {@code InPlaceRestart} strategy, v0.11 and later):
 *       the pods behind the newest attempt restart in place → {@code job.restarted} {@code in-place} with the attempt
 *       they restart into (the value + 1, what the {@code jobset.sigs.k8s.io/in-place-restart-attempt} annotation of
 *       the pods that moved on says);</li>
 *   <li>on first sight only a restart under way is reported (the condition true, or an in-place attempt whose barrier
 *       has not lifted: {@code currentInPlaceRestartAttempt} below it); older counters are history.</li>
 * </ul>
 * Ids are the JobSet's uid and the counter, so a repeat is a duplicate; the model joins a restart to the incident the
 * pods already opened ({@code ControllerRestarts}).
 */
final class JobSetWatcher extends CustomResourceWatcher {

    static final String CONNECTOR = "jobset";
    static final String CRD = "jobsets.jobset.x-k8s.io";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("jobset.x-k8s.io")
            .withVersion("v1alpha2")
            .withPlural("jobsets")
            .withKind("JobSet")
            .withNamespaced(true)
            .build();
    static final String RESTARTING = "RestartingJobSet";

    private final TrainingPods training;

    JobSetWatcher(KubeContext ctx, TrainingPods training) {
        super(ctx, CONNECTOR, CONTEXT);
        this.training = training;
    }

    @Override
    Translation changes(GenericKubernetesResource old, GenericKubernetesResource js, Instant now) {
        if (!trainingJob(js)) {
            return Translation.empty();
        }
        List<Event> out = new ArrayList<>();
        Generic.Condition restarting = Generic.condition(js, RESTARTING);
        boolean underWay = restarting != null && restarting.isTrue();
        int restarts = restarts(js);
        Integer before = old == null ? null : restarts(old);
        if (old == null ? restarts > 0 && underWay : restarts > before) {
            out.add(event(
                    js,
                    "restart/" + restarts,
                    underWay ? KubeContext.time(restarting.lastTransitionTime(), now) : now,
                    new JobData.Restarted(
                            CONNECTOR,
                            "recreate",
                            restarts,
                            before,
                            counted(js),
                            Generic.integer(js, "spec", "failurePolicy", "maxRestarts"),
                            underWay ? KubeContext.reason(restarting.reason(), restarting.message()) : null)));
        }
        Integer previous = Generic.integer(js, "status", "previousInPlaceRestartAttempt");
        Integer previousBefore = old == null ? null : Generic.integer(old, "status", "previousInPlaceRestartAttempt");
        Integer current = Generic.integer(js, "status", "currentInPlaceRestartAttempt");
        boolean grew = previous != null
                && (old == null
                        ? current == null || current <= previous
                        : previousBefore == null || previous > previousBefore);
        if (grew && previous >= 0) {
            int attempt = previous + 1;
            out.add(event(
                    js,
                    "in-place/" + attempt,
                    now,
                    new JobData.Restarted(
                            CONNECTOR,
                            "in-place",
                            attempt,
                            previousBefore == null ? null : previousBefore + 1,
                            null,
                            Generic.integer(js, "spec", "failurePolicy", "maxRestarts"),
                            "pods behind in-place restart attempt " + attempt + " restart in place")));
        }
        return Translation.of(out);
    }

    /** Whether the JobSet runs a training job: owned by a TrainJob, or named after a watched training job. */
    boolean trainingJob(GenericKubernetesResource js) {
        List<OwnerReference> owners = js.getMetadata().getOwnerReferences();
        if (owners != null) {
            for (OwnerReference o : owners) {
                if ("TrainJob".equals(o.getKind())
                        && o.getApiVersion() != null
                        && o.getApiVersion().startsWith("trainer.kubeflow.org/")) {
                    return true;
                }
            }
        }
        return training.job(KubeContext.job(
                        js.getMetadata().getNamespace(), js.getMetadata().getName()))
                != null;
    }

    private static int restarts(GenericKubernetesResource js) {
        Integer n = Generic.integer(js, "status", "restarts");
        return n == null ? 0 : Math.max(0, n);
    }

    /** {@code restartsCountTowardsMax}: omitted when zero, so 0 beside a reported {@code restarts}. */
    private static Integer counted(GenericKubernetesResource js) {
        Integer n = Generic.integer(js, "status", "restartsCountTowardsMax");
        return n != null ? Integer.valueOf(Math.max(0, n)) : Generic.at(js, "status", "restarts") != null ? 0 : null;
    }

    private Event event(GenericKubernetesResource js, String what, Instant time, JobData.Restarted data) {
        return new Event(
                "jobset/" + KubeContext.uid(js) + "/" + what,
                ctx.source,
                EventType.JOB_RESTARTED,
                KubeContext.job(
                        js.getMetadata().getNamespace(), js.getMetadata().getName()),
                time,
                data);
    }
}
