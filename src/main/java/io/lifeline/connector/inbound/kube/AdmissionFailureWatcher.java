package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Pods a node's kubelet rejected: any pod (not only training pods; a node that swallows pods swallows every kind),
 * read from an informer on {@code status.phase=Failed} only, so the cache holds failed pods and nothing else. A pod
 * whose {@code status.reason} is one of the configured admission reasons (by default {@code UnexpectedAdmissionError},
 * the kubelet's reason when device allocation fails, and {@code DeviceNotReady}), or whose message says "Allocate
 * failed", becomes one {@code node.admission_failed} on its {@code spec.nodeName}, once per pod (the id is the pod's).
 */
final class AdmissionFailureWatcher implements ResourceEventHandler<Pod> {

    static final String CONNECTOR = "kubernetes-admission";
    /** What the kubelet's admission handlers write when an allocation fails (lifecycle/admission in the kubelet). */
    static final String ALLOCATE_FAILED = "Allocate failed";

    private final KubeContext ctx;
    private final Set<String> reasons;
    private final TranslatorStats stats = new TranslatorStats(CONNECTOR);

    AdmissionFailureWatcher(KubeContext ctx, Set<String> reasons) {
        this.ctx = ctx;
        this.reasons = Set.copyOf(reasons);
        ctx.register(stats);
    }

    SharedIndexInformer<Pod> start(KubernetesClient client, long resyncMillis) {
        return start(client, resyncMillis, true);
    }

    /**
     * The informer, on Failed pods only ({@code failedOnly}, as the API server selects them by
     * {@code status.phase}) or on every pod (a test server that cannot select by status fields).
     */
    SharedIndexInformer<Pod> start(KubernetesClient client, long resyncMillis, boolean failedOnly) {
        SharedIndexInformer<Pod> informer = failedOnly
                ? client.pods()
                        .inAnyNamespace()
                        .withField("status.phase", "Failed")
                        .runnableInformer(resyncMillis)
                : client.pods().inAnyNamespace().runnableInformer(resyncMillis);
        informer.addEventHandler(this);
        return informer;
    }

    @Override
    public void onAdd(Pod pod) {
        if (ctx.named(stats, pod)) {
            ctx.emit(stats, translate(pod, ctx.now()));
        }
    }

    @Override
    public void onUpdate(Pod old, Pod pod) {
        if (ctx.named(stats, old, pod) && !KubeContext.sameVersion(old, pod)) {
            ctx.emit(stats, translate(pod, ctx.now()));
        }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
        // A rejected pod deleted afterwards was still rejected: the event was sent when it failed.
    }

    /** The rejection a failed pod reports, if it is one. */
    Translation translate(Pod pod, Instant now) {
        if (!rejected(pod, reasons)) {
            return Translation.empty();
        }
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isBlank()) {
            return Translation.rejected(
                    "no_node", "pod " + pod.getMetadata().getName() + " was rejected at admission but names no node");
        }
        String reason = pod.getStatus().getReason();
        return Translation.of(List.of(new Event(
                "pod/" + KubeContext.uid(pod) + "/admission_failed",
                ctx.source,
                EventType.NODE_ADMISSION_FAILED,
                node,
                rejectedAt(pod, now),
                new NodeData.AdmissionFailed(
                        KubeContext.job(
                                pod.getMetadata().getNamespace(),
                                pod.getMetadata().getName()),
                        reason == null || reason.isBlank() ? "AllocateFailed" : reason,
                        KubeContext.text(pod.getStatus().getMessage())))));
    }

    /** Whether the pod failed at admission or device allocation on its node. */
    static boolean rejected(Pod pod, Set<String> reasons) {
        if (pod.getStatus() == null || !"Failed".equals(pod.getStatus().getPhase())) {
            return false;
        }
        String reason = pod.getStatus().getReason();
        String message = pod.getStatus().getMessage();
        return (reason != null && reasons.contains(reason)) || (message != null && message.contains(ALLOCATE_FAILED));
    }

    /**
     * When the kubelet rejected it: the newest condition transition, else the status' start time, else the pod's
     * creation (a rejected pod never started, so these are all close), else now.
     */
    static Instant rejectedAt(Pod pod, Instant now) {
        Instant newest = null;
        if (pod.getStatus().getConditions() != null) {
            for (PodCondition c : pod.getStatus().getConditions()) {
                Instant t = c == null ? null : KubeContext.time(c.getLastTransitionTime(), null);
                if (t != null && (newest == null || t.isAfter(newest))) {
                    newest = t;
                }
            }
        }
        if (newest != null) {
            return newest;
        }
        Instant started = KubeContext.time(pod.getStatus().getStartTime(), null);
        return started != null ? started : KubeContext.created(pod, now);
    }
}
