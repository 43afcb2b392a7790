package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.SchedulerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kueue Workloads ({@code kueue.x-k8s.io/v1beta1 workloads}) into scheduler events for the job that owns them
 * (the Workload's controller owner, for example its PyTorchJob; the Workload's own name otherwise):
 * <ul>
 *   <li>{@code Admitted} true → {@code workload.admitted} (queue: the admitting ClusterQueue, else
 *       {@code spec.queueName});</li>
 *   <li>{@code Evicted} true → {@code workload.preempted} when its reason is {@code Preempted}, else
 *       {@code workload.evicted};</li>
 *   <li>{@code Preempted} true → {@code workload.preempted} (preemptor: the UID Kueue names in the message;
 *       priority: {@code spec.priority}). Kueue sets it together with {@code Evicted}/{@code Preempted}: both map to
 *       the same id, so the preemption counts once;</li>
 *   <li>{@code Requeued} true → {@code workload.requeued}.</li>
 * </ul>
 * A condition is reported when it becomes true or its transition time changes; the id carries that time.
 */
final class KueueWorkloadWatcher extends CustomResourceWatcher {

    static final String CONNECTOR = "kueue-workload";
    static final String CRD = "workloads.kueue.x-k8s.io";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("kueue.x-k8s.io")
            .withVersion("v1beta1")
            .withPlural("workloads")
            .withKind("Workload")
            .withNamespaced(true)
            .build();
    private static final List<String> TRACKED = List.of("Admitted", "Evicted", "Preempted", "Requeued");
    private static final Pattern PREEMPTOR_UID = Pattern.compile("\\(UID: ([^,)\\s]+)");

    KueueWorkloadWatcher(KubeContext ctx) {
        super(ctx, CONNECTOR, CONTEXT);
    }

    /** The conditions that turned true (or moved) between {@code old} (null on first sight) and {@code wl}. */
    @Override
    Translation changes(GenericKubernetesResource old, GenericKubernetesResource wl, Instant now) {
        List<Event> out = new ArrayList<>();
        for (String type : TRACKED) {
            Generic.Condition c = Generic.condition(wl, type);
            if (c == null || !c.isTrue()) {
                continue;
            }
            Generic.Condition before = old == null ? null : Generic.condition(old, type);
            if (before != null
                    && before.isTrue()
                    && Objects.equals(before.lastTransitionTime(), c.lastTransitionTime())) {
                continue;
            }
            out.add(event(wl, c, now));
        }
        return Translation.of(out);
    }

    private Event event(GenericKubernetesResource wl, Generic.Condition c, Instant now) {
        Instant at = KubeContext.time(c.lastTransitionTime(), now);
        String since = c.lastTransitionTime() != null ? c.lastTransitionTime() : KubeContext.resourceVersion(wl);
        String reason = KubeContext.reason(c.reason(), c.message());
        switch (c.type()) {
            case "Admitted": {
                String queue = Generic.string(wl, "status", "admission", "clusterQueue");
                return event(
                        wl,
                        "admitted/" + since,
                        EventType.WORKLOAD_ADMITTED,
                        at,
                        new SchedulerData.Admitted(
                                wl.getMetadata().getName(),
                                queue != null ? queue : Generic.string(wl, "spec", "queueName")));
            }
            case "Evicted":
                if (!"Preempted".equals(c.reason())) {
                    return event(
                            wl, "evicted/" + since, EventType.WORKLOAD_EVICTED, at, new SchedulerData.Evicted(reason));
                }
                return preempted(wl, since, at, reason, c.message());
            case "Preempted":
                return preempted(wl, since, at, reason, c.message());
            default:
                return event(
                        wl, "requeued/" + since, EventType.WORKLOAD_REQUEUED, at, new SchedulerData.Requeued(reason));
        }
    }

    private Event preempted(GenericKubernetesResource wl, String since, Instant at, String reason, String message) {
        String preemptor = null;
        if (message != null) {
            Matcher m = PREEMPTOR_UID.matcher(message);
            if (m.find()) {
                preemptor = m.group(1);
            }
        }
        return event(
                wl,
                "preempted/" + since,
                EventType.WORKLOAD_PREEMPTED,
                at,
                new SchedulerData.Preempted(reason, preemptor, null, Generic.integer(wl, "spec", "priority")));
    }

    private Event event(GenericKubernetesResource wl, String what, EventType type, Instant time, EventData data) {
        return new Event("workload/" + KubeContext.uid(wl) + "/" + what, ctx.source, type, job(wl), time, data);
    }

    /** The job a Workload stands for: its controller owner, else the Workload itself. */
    static String job(GenericKubernetesResource wl) {
        String name = wl.getMetadata().getName();
        List<OwnerReference> owners = wl.getMetadata().getOwnerReferences();
        if (owners != null && !owners.isEmpty()) {
            OwnerReference owner = owners.get(0);
            for (OwnerReference o : owners) {
                if (Boolean.TRUE.equals(o.getController())) {
                    owner = o;
                }
            }
            name = owner.getName();
        }
        return KubeContext.job(wl.getMetadata().getNamespace(), name);
    }
}
