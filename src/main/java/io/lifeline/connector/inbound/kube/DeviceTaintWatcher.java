package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;

/**
 * DRA device taints: ResourceSlices ({@code resource.k8s.io}, {@code devices[].taints}, where the NVIDIA DRA driver
 * puts {@code gpu.nvidia.com/xid}, {@code gpu.nvidia.com/gpu-lost} and {@code gpu.nvidia.com/unmonitored}) and
 * DeviceTaintRules (an administrator's or a health controller's taint over selected devices), both cluster-scoped,
 * read as {@link GenericKubernetesResource} at the configured API version. {@link DraDevices} turns them into
 * {@code gpu.device_health} events per GPU.
 */
final class DeviceTaintWatcher {

    static final String CONNECTOR = "kubernetes-dra";
    static final String GROUP = "resource.k8s.io";

    private final KubeContext ctx;
    private final DraDevices devices;
    private final TranslatorStats stats = new TranslatorStats(CONNECTOR);

    DeviceTaintWatcher(KubeContext ctx, DraDevices devices) {
        this.ctx = ctx;
        this.devices = devices;
        ctx.register(stats);
    }

    static ResourceDefinitionContext slices(String version) {
        return kind(version, "ResourceSlice", "resourceslices");
    }

    static ResourceDefinitionContext rules(String version) {
        return kind(version, "DeviceTaintRule", "devicetaintrules");
    }

    private static ResourceDefinitionContext kind(String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(GROUP)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(false)
                .build();
    }

    SharedIndexInformer<GenericKubernetesResource> startSlices(
            KubernetesClient client, String version, long resyncMillis) {
        SharedIndexInformer<GenericKubernetesResource> informer =
                client.genericKubernetesResources(slices(version)).runnableInformer(resyncMillis);
        informer.addEventHandler(sliceHandler());
        return informer;
    }

    SharedIndexInformer<GenericKubernetesResource> startRules(
            KubernetesClient client, String version, long resyncMillis) {
        SharedIndexInformer<GenericKubernetesResource> informer =
                client.genericKubernetesResources(rules(version)).runnableInformer(resyncMillis);
        informer.addEventHandler(ruleHandler());
        return informer;
    }

    ResourceEventHandler<GenericKubernetesResource> sliceHandler() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource slice) {
                if (ctx.named(stats, slice)) {
                    ctx.emit(stats, Translation.of(devices.slice(slice, ctx.source, ctx.now())));
                }
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource slice) {
                if (ctx.named(stats, old, slice) && !KubeContext.sameVersion(old, slice)) {
                    ctx.emit(stats, Translation.of(devices.slice(slice, ctx.source, ctx.now())));
                }
            }

            @Override
            public void onDelete(GenericKubernetesResource slice, boolean finalStateUnknown) {
                if (ctx.named(stats, slice)) {
                    devices.sliceDeleted(slice);
                }
            }
        };
    }

    ResourceEventHandler<GenericKubernetesResource> ruleHandler() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource rule) {
                if (ctx.named(stats, rule)) {
                    ctx.emit(
                            stats,
                            Translation.of(devices.rule(rule.getMetadata().getName(), rule, ctx.source, ctx.now())));
                }
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource rule) {
                if (ctx.named(stats, old, rule) && !KubeContext.sameVersion(old, rule)) {
                    ctx.emit(
                            stats,
                            Translation.of(devices.rule(rule.getMetadata().getName(), rule, ctx.source, ctx.now())));
                }
            }

            @Override
            public void onDelete(GenericKubernetesResource rule, boolean finalStateUnknown) {
                if (ctx.named(stats, rule)) {
                    ctx.emit(
                            stats,
                            Translation.of(devices.rule(rule.getMetadata().getName(), null, ctx.source, ctx.now())));
                }
            }
        };
    }
}
