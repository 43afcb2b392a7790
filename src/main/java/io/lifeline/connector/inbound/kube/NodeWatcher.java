package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.pipeline.ConnectorNodeResolver;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Nodes into {@code node.*} events:
 * <ul>
 *   <li>first sight → {@code node.registered} (pool, capacity type, zone, instance type, GPUs, providerID), the
 *       current readiness and schedulability, and any interruption taint; facts that change later → a new
 *       {@code node.registered} (facts are updated);</li>
 *   <li>the {@code Ready} condition → {@code node.ready} / {@code node.not_ready} (id from its transition time);</li>
 *   <li>{@code spec.unschedulable} → {@code node.cordoned} / {@code node.uncordoned};</li>
 *   <li>interruption taints → {@code node.interruption_notice}: aws-node-termination-handler's
 *       {@code spot-itn} (spot_reclaim), {@code rebalance-recommendation} (rebalance), {@code scheduled-maintenance}
 *       and {@code asg-lifecycle-termination} (maintenance), GKE's {@code cloud.google.com/impending-node-termination}
 *       (preempt);</li>
 *   <li>the kubelet's graceful node shutdown ({@code Ready} False, "node is shutting down") →
 *       {@code node.interruption_notice} (preempt on spot, maintenance otherwise, due 30 s later);</li>
 *   <li>deletion → {@code node.terminated}.</li>
 * </ul>
 * Capacity type: Karpenter {@code karpenter.sh/capacity-type}, EKS {@code eks.amazonaws.com/capacityType}
 * (SPOT, ON_DEMAND, CAPACITY_BLOCK), GKE {@code cloud.google.com/gke-spot} / {@code gke-preemptible},
 * AKS {@code kubernetes.azure.com/scalesetpriority=spot}, {@code node.kubernetes.io/lifecycle=spot}; on-demand
 * otherwise. Every node's provider id also feeds the cloud notice node resolution.
 */
final class NodeWatcher implements ResourceEventHandler<Node> {

    static final String CONNECTOR = "kubernetes-node";
    private static final Map<String, NoticeKind> NOTICE_TAINTS = Map.of(
            "aws-node-termination-handler/spot-itn", NoticeKind.SPOT_RECLAIM,
            "aws-node-termination-handler/rebalance-recommendation", NoticeKind.REBALANCE,
            "aws-node-termination-handler/scheduled-maintenance", NoticeKind.MAINTENANCE,
            "aws-node-termination-handler/asg-lifecycle-termination", NoticeKind.MAINTENANCE,
            "cloud.google.com/impending-node-termination", NoticeKind.PREEMPT);
    /** What the kubelet's shutdown manager reports in the Ready condition while the node shuts down. */
    static final String SHUTTING_DOWN = "node is shutting down";
    /** GKE's {@code shutdownGracePeriod} for the kubelet (its graceful node shutdown default). */
    static final java.time.Duration SHUTDOWN_GRACE = java.time.Duration.ofSeconds(30);

    private static final List<String> GPU_RESOURCES = List.of("nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915");

    private final KubeContext ctx;
    private final List<String> poolLabels;
    private final String defaultPool;
    private final ConnectorNodeResolver resolver;
    private final TranslatorStats stats = new TranslatorStats(CONNECTOR);
    private SharedIndexInformer<Node> informer;

    NodeWatcher(KubeContext ctx, List<String> poolLabels, String defaultPool, ConnectorNodeResolver resolver) {
        this.ctx = ctx;
        this.poolLabels = List.copyOf(poolLabels);
        this.defaultPool = defaultPool;
        this.resolver = resolver;
        ctx.register(stats);
    }

    TranslatorStats stats() {
        return stats;
    }

    SharedIndexInformer<Node> start(KubernetesClient client, long resyncMillis) {
        informer = client.nodes().runnableInformer(resyncMillis);
        informer.addEventHandler(this);
        return informer;
    }

    @Override
    public void onAdd(Node node) {
        if (!ctx.named(stats, node)) {
            return;
        }
        learn(node);
        ctx.emit(stats, added(node, ctx.now()));
    }

    @Override
    public void onUpdate(Node old, Node node) {
        if (!ctx.named(stats, old, node) || KubeContext.sameVersion(old, node)) {
            return;
        }
        learn(node);
        ctx.emit(stats, updated(old, node, ctx.now()));
    }

    @Override
    public void onDelete(Node node, boolean finalStateUnknown) {
        if (!ctx.named(stats, node)) {
            return;
        }
        if (resolver != null) {
            resolver.forget(node.getMetadata().getName());
        }
        ctx.emit(stats, deleted(node, ctx.now()));
    }

    private void learn(Node node) {
        if (resolver != null && node.getSpec() != null && node.getSpec().getProviderID() != null) {
            resolver.register(node.getMetadata().getName(), node.getSpec().getProviderID());
        }
    }

    /** Everything a node first seen says: registration, readiness, schedulability, interruption taints. */
    Translation added(Node node, Instant now) {
        List<Event> out = new ArrayList<>();
        NodeData.Registered facts = facts(node);
        out.add(event(
                node,
                "registered/" + fingerprint(facts),
                EventType.NODE_REGISTERED,
                KubeContext.created(node, now),
                facts));
        NodeCondition ready = readyCondition(node);
        if (ready != null) {
            out.add(readiness(node, ready, now));
            addShutdownNotice(out, node, ready, now);
        }
        boolean cordoned = unschedulable(node);
        out.add(event(
                node,
                (cordoned ? "cordoned/" : "uncordoned/") + KubeContext.resourceVersion(node),
                cordoned ? EventType.NODE_CORDONED : EventType.NODE_UNCORDONED,
                now,
                cordoned ? new NodeData.Cordoned(null) : new NodeData.Uncordoned()));
        for (Taint t : taints(node)) {
            Event notice = notice(node, t, now);
            if (notice != null) {
                out.add(notice);
            }
        }
        return Translation.of(out);
    }

    /** What changed between two versions of a node. */
    Translation updated(Node old, Node node, Instant now) {
        List<Event> out = new ArrayList<>();
        NodeData.Registered facts = facts(node);
        if (!facts.equals(facts(old))) {
            out.add(event(node, "registered/" + fingerprint(facts), EventType.NODE_REGISTERED, now, facts));
        }
        NodeCondition ready = readyCondition(node);
        NodeCondition before = readyCondition(old);
        if (ready != null
                && (before == null
                        || !Objects.equals(ready.getStatus(), before.getStatus())
                        || !Objects.equals(ready.getLastTransitionTime(), before.getLastTransitionTime()))) {
            out.add(readiness(node, ready, now));
            addShutdownNotice(out, node, ready, now);
        }
        boolean cordoned = unschedulable(node);
        if (cordoned != unschedulable(old)) {
            out.add(event(
                    node,
                    (cordoned ? "cordoned/" : "uncordoned/") + KubeContext.resourceVersion(node),
                    cordoned ? EventType.NODE_CORDONED : EventType.NODE_UNCORDONED,
                    now,
                    cordoned ? new NodeData.Cordoned(null) : new NodeData.Uncordoned()));
        }
        Map<String, Taint> had = new HashMap<>();
        for (Taint t : taints(old)) {
            had.put(t.getKey() + "=" + t.getValue(), t);
        }
        for (Taint t : taints(node)) {
            if (!had.containsKey(t.getKey() + "=" + t.getValue())) {
                Event notice = notice(node, t, now);
                if (notice != null) {
                    out.add(notice);
                }
            }
        }
        return Translation.of(out);
    }

    /** A deleted Node: the node is gone. */
    Translation deleted(Node node, Instant now) {
        Instant at = KubeContext.time(node.getMetadata().getDeletionTimestamp(), now);
        return Translation.of(List.of(event(
                node, "terminated", EventType.NODE_TERMINATED, at, new NodeData.Terminated("Node object deleted"))));
    }

    private Event readiness(Node node, NodeCondition c, Instant now) {
        Instant at = KubeContext.time(c.getLastTransitionTime(), now);
        String since =
                c.getLastTransitionTime() != null ? c.getLastTransitionTime() : KubeContext.resourceVersion(node);
        if ("True".equals(c.getStatus())) {
            return event(node, "ready/" + since, EventType.NODE_READY, at, new NodeData.Ready());
        }
        return event(
                node,
                "not_ready/" + since,
                EventType.NODE_NOT_READY,
                at,
                new NodeData.NotReady(KubeContext.reason(c.getReason(), c.getMessage())));
    }

    /**
     * The kubelet's graceful node shutdown (GKE's spot preemption arrives this way, bypassing evictions): when systemd
     * announces the shutdown, the kubelet turns {@code Ready} False with the message {@code node is shutting down}
     * (its shutdown manager's status) and kills the pods within {@code shutdownGracePeriod}. That is a notice: preempt
     * on spot capacity, maintenance otherwise, due {@link #SHUTDOWN_GRACE} after the condition's transition. The words
     * are looked for in the message (where the kubelet puts them, alone or among other errors: {@code [container runtime
     * is down, node is shutting down]}) and in the reason (where Kubernetes' documentation says they are), in any case.
     */
    private void addShutdownNotice(List<Event> out, Node node, NodeCondition ready, Instant now) {
        if ("True".equals(ready.getStatus())
                || !mentionsShutdown(ready.getMessage()) && !mentionsShutdown(ready.getReason())) {
            return;
        }
        Instant at = KubeContext.time(ready.getLastTransitionTime(), now);
        String since = ready.getLastTransitionTime() != null
                ? ready.getLastTransitionTime()
                : KubeContext.resourceVersion(node);
        NoticeKind kind = facts(node).capacityType() == CapacityType.SPOT ? NoticeKind.PREEMPT : NoticeKind.MAINTENANCE;
        String providerId = node.getSpec() == null ? null : node.getSpec().getProviderID();
        String provider = providerId != null && providerId.startsWith("gce://") ? "gcp" : "kubernetes";
        out.add(event(
                node,
                "notice/graceful-shutdown/" + since,
                EventType.NODE_INTERRUPTION_NOTICE,
                at,
                new NodeData.InterruptionNotice(kind, provider, at.plus(SHUTDOWN_GRACE))));
    }

    private static boolean mentionsShutdown(String text) {
        return text != null
                && text.length() <= 4096
                && text.toLowerCase(java.util.Locale.ROOT).contains(SHUTTING_DOWN);
    }

    private Event notice(Node node, Taint t, Instant now) {
        NoticeKind kind = t.getKey() == null ? null : NOTICE_TAINTS.get(t.getKey());
        if (kind == null) {
            return null;
        }
        String provider = t.getKey().startsWith("cloud.google.com/") ? "gcp" : "aws";
        String mark =
                t.getValue() != null && !t.getValue().isBlank() ? t.getValue() : KubeContext.resourceVersion(node);
        return event(
                node,
                "notice/" + t.getKey() + "/" + mark,
                EventType.NODE_INTERRUPTION_NOTICE,
                KubeContext.time(t.getTimeAdded(), now),
                new NodeData.InterruptionNotice(kind, provider, null));
    }

    private Event event(Node node, String what, EventType type, Instant time, NodeData data) {
        return new Event(
                "node/" + KubeContext.uid(node) + "/" + what,
                ctx.source,
                type,
                node.getMetadata().getName(),
                time,
                data);
    }

    NodeData.Registered facts(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        String pool = defaultPool;
        for (String l : poolLabels) {
            String v = labels.get(l);
            if (v != null && !v.isBlank()) {
                pool = v;
                break;
            }
        }
        String zone = first(labels, "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone");
        String instanceType = first(labels, "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type");
        String providerId =
                node.getSpec() == null ? null : KubeContext.text(node.getSpec().getProviderID());
        return new NodeData.Registered(pool, capacityType(labels), zone, instanceType, gpus(node), providerId);
    }

    static CapacityType capacityType(Map<String, String> labels) {
        String karpenter = labels.get("karpenter.sh/capacity-type");
        if (karpenter != null && CapacityType.fromWireName(karpenter) != null) {
            return CapacityType.fromWireName(karpenter);
        }
        String eks = labels.get("eks.amazonaws.com/capacityType");
        if (eks != null) {
            if ("CAPACITY_BLOCK".equalsIgnoreCase(eks)) {
                return CapacityType.RESERVED;
            }
            if (CapacityType.fromWireName(eks) != null) {
                return CapacityType.fromWireName(eks);
            }
        }
        if ("true".equalsIgnoreCase(labels.get("cloud.google.com/gke-spot"))
                || "true".equalsIgnoreCase(labels.get("cloud.google.com/gke-preemptible"))
                || "spot".equalsIgnoreCase(labels.get("kubernetes.azure.com/scalesetpriority"))
                || "spot".equalsIgnoreCase(labels.get("node.kubernetes.io/lifecycle"))) {
            return CapacityType.SPOT;
        }
        return CapacityType.ON_DEMAND;
    }

    private static int gpus(Node node) {
        if (node.getStatus() == null || node.getStatus().getCapacity() == null) {
            return 0;
        }
        Map<String, Quantity> capacity = node.getStatus().getCapacity();
        for (String r : GPU_RESOURCES) {
            Quantity q = capacity.get(r);
            if (q != null) {
                try {
                    int n = q.getNumericalAmount().intValue();
                    return Math.max(0, Math.min(1024, n));
                } catch (ArithmeticException | IllegalArgumentException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static NodeCondition readyCondition(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        for (NodeCondition c : node.getStatus().getConditions()) {
            if (c != null && "Ready".equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private static boolean unschedulable(Node node) {
        return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }

    private static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints().stream().filter(Objects::nonNull).toList();
    }

    private static String first(Map<String, String> labels, String a, String b) {
        String v = labels.get(a);
        return v != null && !v.isBlank() ? v : KubeContext.text(labels.get(b));
    }

    /** A short stable digest of a node's facts: a new registration id exactly when the facts change. */
    private static String fingerprint(NodeData.Registered facts) {
        String s = facts.pool() + "|" + facts.capacityType() + "|" + facts.zone() + "|" + facts.instanceType() + "|"
                + facts.gpuCount() + "|" + facts.providerId();
        return UUID.nameUUIDFromBytes(s.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
