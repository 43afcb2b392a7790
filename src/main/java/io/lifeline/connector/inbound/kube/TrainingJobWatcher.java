package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.pipeline.ConnectorJobResolver;
import java.time.Instant;

/**
 * The informer side shared by the watchers of training-job kinds (PyTorchJob, TrainJob): every job seen is remembered
 * for the pod watcher ({@link TrainingPods}) and for the torchelastic connector (its run id and processes per node),
 * forgotten when deleted, and each change is translated by the kind's own rules.
 */
abstract class TrainingJobWatcher implements ResourceEventHandler<GenericKubernetesResource> {

    protected final KubeContext ctx;
    private final TrainingPods training;
    private final ConnectorJobResolver jobs;
    private final TranslatorStats stats;
    private final ResourceDefinitionContext kind;

    TrainingJobWatcher(
            KubeContext ctx,
            TrainingPods training,
            ConnectorJobResolver jobs,
            String connector,
            ResourceDefinitionContext kind) {
        this.ctx = ctx;
        this.training = training;
        this.jobs = jobs;
        this.stats = new TranslatorStats(connector);
        this.kind = kind;
        ctx.register(stats);
    }

    SharedIndexInformer<GenericKubernetesResource> start(KubernetesClient client, long resyncMillis) {
        SharedIndexInformer<GenericKubernetesResource> informer =
                client.genericKubernetesResources(kind).inAnyNamespace().runnableInformer(resyncMillis);
        informer.addEventHandler(this);
        return informer;
    }

    /** What the pod watcher needs to know of this job. */
    abstract TrainingPods.Job trainingJob(GenericKubernetesResource job);

    abstract Translation added(GenericKubernetesResource job, Instant now);

    abstract Translation updated(GenericKubernetesResource old, GenericKubernetesResource job, Instant now);

    abstract Translation deleted(GenericKubernetesResource job, Instant now);

    @Override
    public void onAdd(GenericKubernetesResource job) {
        if (!ctx.named(stats, job)) {
            return;
        }
        remember(job);
        ctx.emit(stats, added(job, ctx.now()));
    }

    @Override
    public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource job) {
        if (!ctx.named(stats, old, job) || KubeContext.sameVersion(old, job)) {
            return;
        }
        remember(job);
        ctx.emit(stats, updated(old, job, ctx.now()));
    }

    @Override
    public void onDelete(GenericKubernetesResource job, boolean finalStateUnknown) {
        if (!ctx.named(stats, job)) {
            return;
        }
        String name = job.getMetadata().getName();
        String namespace = job.getMetadata().getNamespace();
        training.removeJob(KubeContext.job(namespace, name));
        if (jobs != null) {
            jobs.unwatchJob(namespace, name);
        }
        ctx.emit(stats, deleted(job, ctx.now()));
    }

    private void remember(GenericKubernetesResource job) {
        String name = job.getMetadata().getName();
        String namespace = job.getMetadata().getNamespace();
        TrainingPods.Job j = trainingJob(job);
        training.putJob(KubeContext.job(namespace, name), j);
        if (jobs != null) {
            jobs.watchJob(namespace == null ? "default" : namespace, name, j.procsPerNode());
        }
    }
}
