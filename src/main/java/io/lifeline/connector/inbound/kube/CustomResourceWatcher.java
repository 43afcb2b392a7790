package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import java.time.Instant;

/**
 * A watcher of one custom resource kind (read as {@link GenericKubernetesResource}, so no CRD classes are
 * needed) whose every change is translated by comparing the old and new object. Resyncs of an unchanged object
 * emit nothing; deletions say nothing the resource's own status did not already say.
 */
abstract class CustomResourceWatcher implements ResourceEventHandler<GenericKubernetesResource> {

    protected final KubeContext ctx;
    private final TranslatorStats stats;
    private final ResourceDefinitionContext kind;

    CustomResourceWatcher(KubeContext ctx, String connector, ResourceDefinitionContext kind) {
        this.ctx = ctx;
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

    /** The catalogue events for what changed between {@code old} (null on first sight) and {@code now}'s object. */
    abstract Translation changes(GenericKubernetesResource old, GenericKubernetesResource current, Instant now);

    @Override
    public void onAdd(GenericKubernetesResource resource) {
        if (!ctx.named(stats, resource)) {
            return;
        }
        ctx.emit(stats, changes(null, resource, ctx.now()));
    }

    @Override
    public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource resource) {
        if (ctx.named(stats, old, resource) && !KubeContext.sameVersion(old, resource)) {
            ctx.emit(stats, changes(old, resource, ctx.now()));
        }
    }

    @Override
    public void onDelete(GenericKubernetesResource resource, boolean finalStateUnknown) {
        // The end of the work is reported through the resource's status before it goes.
    }
}
