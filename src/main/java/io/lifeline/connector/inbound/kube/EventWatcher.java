package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.SchedulerData;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Kubernetes Events about training pods (core v1 Events whose {@code involvedObject} is a watched training pod),
 * reasons:
 * <ul>
 *   <li>{@code Preempted} (kube-scheduler made room for a higher-priority pod) and {@code Evicted} (the kubelet,
 *       under node pressure) → {@code pod.evicted}, with the id of the pod's eviction (see {@link PodWatcher}), so
 *       the Event and the pod's own status count once;</li>
 *   <li>{@code Killing} (the kubelet stops the pod's containers: the pod is being removed) → the same
 *       {@code pod.evicted}, unless the containers are only restarted in place (a failed probe) or the job has
 *       finished (its pods are cleaned up);</li>
 *   <li>{@code FailedScheduling} → {@code workload.requeued} (the job waits for capacity), once per Event object:
 *       Kubernetes counts repeats on the same object, so the id is the Event's uid.</li>
 * </ul>
 * Events of pods that are not training pods, and other reasons, are ignored without being counted. The informer
 * keeps no Events in memory ({@link NothingKept}): each is looked at once as it arrives.
 */
final class EventWatcher implements ResourceEventHandler<Event> {

    static final String CONNECTOR = "kubernetes-event";
    static final Set<String> REASONS = Set.of("Preempted", "Evicted", "Killing", "FailedScheduling");

    private final KubeContext ctx;
    private final TrainingPods training;
    private final TranslatorStats stats = new TranslatorStats(CONNECTOR);

    EventWatcher(KubeContext ctx, TrainingPods training) {
        this.ctx = ctx;
        this.training = training;
        ctx.register(stats);
    }

    SharedIndexInformer<Event> start(KubernetesClient client, long resyncMillis) {
        // Filtered here rather than with the field selector involvedObject.kind=Pod: the API server supports it,
        // but not every API server implementation does (the fabric8 mock server drops every event with it).
        SharedIndexInformer<Event> informer =
                client.v1().events().inAnyNamespace().runnableInformer(resyncMillis);
        informer.itemStore(new NothingKept<>()); // every Event of the cluster would otherwise be held in memory
        informer.addEventHandler(this);
        return informer;
    }

    @Override
    public void onAdd(Event e) {
        if (ctx.named(stats, e)) {
            handle(e);
        }
    }

    @Override
    public void onUpdate(Event old, Event e) {
        if (ctx.named(stats, old, e) && !KubeContext.sameVersion(old, e)) {
            handle(e);
        }
    }

    @Override
    public void onDelete(Event e, boolean finalStateUnknown) {
        // Events expire; nothing to report.
    }

    private void handle(Event e) {
        Translation t = translate(e, ctx.now());
        if (t != null) {
            ctx.emit(stats, t);
        }
    }

    /** The event for a Kubernetes Event, or null when it is not about a training pod or not a reason we track. */
    Translation translate(Event e, Instant now) {
        ObjectReference involved = e.getInvolvedObject();
        if (e.getReason() == null
                || !REASONS.contains(e.getReason())
                || involved == null
                || !"Pod".equals(involved.getKind())) {
            return null;
        }
        String namespace = involved.getNamespace() != null
                ? involved.getNamespace()
                : e.getMetadata().getNamespace();
        TrainingPods.Pod pod = training.pod(namespace, involved.getName());
        if (pod == null) {
            return null;
        }
        Instant at = when(e, now);
        String message = KubeContext.text(e.getMessage());
        String podUid = involved.getUid() != null && !involved.getUid().isBlank() ? involved.getUid() : pod.uid();
        switch (e.getReason()) {
            case "Preempted", "Evicted":
                return Translation.of(List.of(PodWatcher.evictedEvent(
                        ctx.source,
                        podUid,
                        pod.job(),
                        involved.getName(),
                        pod.node(),
                        KubeContext.reason(e.getReason(), message),
                        at)));
            case "Killing": {
                TrainingPods.Job job = training.job(pod.job());
                if (job != null && job.finished()
                        || message != null && message.toLowerCase(Locale.ROOT).contains("restart")) {
                    return Translation.empty();
                }
                return Translation.of(List.of(PodWatcher.evictedEvent(
                        ctx.source,
                        podUid,
                        pod.job(),
                        involved.getName(),
                        pod.node(),
                        KubeContext.reason("Killing", message),
                        at)));
            }
            default:
                return Translation.of(List.of(new io.lifeline.domain.event.Event(
                        "event/" + KubeContext.uid(e),
                        ctx.source,
                        EventType.WORKLOAD_REQUEUED,
                        pod.job(),
                        at,
                        new SchedulerData.Requeued(KubeContext.reason(
                                "FailedScheduling", "pod " + involved.getName() + ": " + message)))));
        }
    }

    private static Instant when(Event e, Instant now) {
        Instant t = KubeContext.time(e.getLastTimestamp(), null);
        if (t == null && e.getEventTime() != null) {
            t = KubeContext.time(e.getEventTime().getTime(), null);
        }
        if (t == null) {
            t = KubeContext.time(e.getFirstTimestamp(), null);
        }
        return t != null ? t : KubeContext.created(e, now);
    }
}
