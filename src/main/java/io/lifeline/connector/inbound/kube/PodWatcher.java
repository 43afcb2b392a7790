package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.pipeline.HostNodes;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Pods of training jobs, each kind read by its {@link PodScheme}: PyTorchJobs (Kubeflow's
 * {@code training.kubeflow.org/job-name} label) and Kubeflow Trainer v2 TrainJobs (their JobSet's
 * {@code jobset.sigs.k8s.io/jobset-name}, for a TrainJob that is watched); the job is {@code namespace/<name>}:
 * <ul>
 *   <li>an evicted pod ({@code status.reason=Evicted}, or a {@code DisruptionTarget} condition: preemption by the
 *       scheduler, the Eviction API, a taint, the kubelet) → {@code pod.evicted}, once per pod (the id is the pod's,
 *       so the Kubernetes Events about the same eviction are the same event);</li>
 *   <li>a container that terminated with a non-zero exit code or {@code OOMKilled} (now or before its last
 *       restart) → {@code trainer.worker_failed} with the exit code and reason, for the first rank the pod hosts
 *       (its scheme's node rank times the job's processes per node when known). Containers of an evicted pod are not
 *       reported again: the eviction is the cause.</li>
 * </ul>
 * Also keeps {@link TrainingPods} and {@link HostNodes} (pod hostname → node, for torchelastic) current.
 * One informer per scheme, all with the same translation and the same counters.
 */
final class PodWatcher {

    static final String CONNECTOR = "kubernetes-pod";
    static final String JOB_LABEL = "training.kubeflow.org/job-name";
    static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";
    static final String REPLICA_INDEX = "training.kubeflow.org/replica-index";

    private final KubeContext ctx;
    private final TrainingPods training;
    private final HostNodes hosts;
    private final TranslatorStats stats = new TranslatorStats(CONNECTOR);
    private final DraDevices dra;

    PodWatcher(KubeContext ctx, TrainingPods training, HostNodes hosts) {
        this(ctx, training, hosts, null);
    }

    /** A watcher that also reads the kubelet's device health of the pods, DRA devices looked up in {@code dra}. */
    PodWatcher(KubeContext ctx, TrainingPods training, HostNodes hosts, DraDevices dra) {
        this.ctx = ctx;
        this.training = training;
        this.hosts = hosts;
        this.dra = dra;
        ctx.register(stats);
    }

    /** The PyTorchJob pods' informer. */
    SharedIndexInformer<Pod> start(KubernetesClient client, long resyncMillis) {
        return start(client, resyncMillis, PodScheme.PYTORCHJOB);
    }

    /** The informer of one kind's pods (those with its label), translated here. */
    SharedIndexInformer<Pod> start(KubernetesClient client, long resyncMillis, PodScheme scheme) {
        SharedIndexInformer<Pod> informer =
                client.pods().inAnyNamespace().withLabel(scheme.label()).runnableInformer(resyncMillis);
        informer.addEventHandler(handler(scheme));
        return informer;
    }

    /** Handles one kind's pods. */
    ResourceEventHandler<Pod> handler(PodScheme scheme) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                if (!ctx.named(stats, pod)) {
                    return;
                }
                remember(scheme, pod);
                ctx.emit(stats, changes(scheme, null, pod, ctx.now()));
                ctx.emit(stats, PodDeviceHealth.changes(null, pod, ctx.source, dra, ctx.now()));
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                if (!ctx.named(stats, old, pod) || KubeContext.sameVersion(old, pod)) {
                    return;
                }
                remember(scheme, pod);
                ctx.emit(stats, changes(scheme, old, pod, ctx.now()));
                ctx.emit(stats, PodDeviceHealth.changes(old, pod, ctx.source, dra, ctx.now()));
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                if (!ctx.named(stats, pod)) {
                    return;
                }
                training.removePod(
                        pod.getMetadata().getNamespace(), pod.getMetadata().getName());
                if (hosts != null) {
                    hosts.remove(hostname(pod));
                }
            }
        };
    }

    private void remember(PodScheme scheme, Pod pod) {
        String job = job(scheme, pod);
        if (job == null) {
            return;
        }
        String node = node(pod);
        training.putPod(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                new TrainingPods.Pod(
                        KubeContext.uid(pod), job, node, scheme.replicaType(pod), scheme.replicaIndex(pod)));
        if (hosts != null && node != null) {
            hosts.put(hostname(pod), node);
        }
    }

    /** What a pod's new version says that its old version (null on first sight) did not. */
    Translation changes(PodScheme scheme, Pod old, Pod pod, Instant now) {
        String job = job(scheme, pod);
        if (job == null) {
            return Translation.empty();
        }
        String evicted = eviction(pod);
        if (evicted != null) {
            if (old != null && eviction(old) != null) {
                return Translation.empty();
            }
            return Translation.of(List.of(evictedEvent(
                    ctx.source,
                    KubeContext.uid(pod),
                    job,
                    pod.getMetadata().getName(),
                    node(pod),
                    evicted,
                    evictionTime(pod, now))));
        }
        Set<String> known = old == null ? Set.of() : failureKeys(old);
        List<Event> out = new ArrayList<>();
        List<Translation.Rejection> rejections = new ArrayList<>();
        for (ContainerStatus cs : statuses(pod)) {
            for (ContainerStateTerminated t : terminations(cs)) {
                String key = failureKey(cs, t);
                if (!failed(t) || known.contains(key)) {
                    continue;
                }
                Integer rank = firstRank(scheme, pod, job);
                if (rank == null) {
                    rejections.add(new Translation.Rejection(
                            "unknown_rank", "pod " + pod.getMetadata().getName() + " " + scheme.noRank()));
                    continue;
                }
                String error = KubeContext.reason(t.getReason(), t.getMessage());
                out.add(new Event(
                        "pod/" + KubeContext.uid(pod) + "/worker_failed/" + key,
                        ctx.source,
                        EventType.TRAINER_WORKER_FAILED,
                        job,
                        KubeContext.time(t.getFinishedAt(), now),
                        new TrainerData.WorkerFailed(
                                null,
                                rank,
                                node(pod),
                                t.getExitCode(),
                                error == null
                                        ? "container " + cs.getName() + " failed"
                                        : error + " (container " + cs.getName() + ")")));
            }
        }
        return new Translation(out, rejections);
    }

    /** The {@code pod.evicted} of a pod, with an id of the pod's own, shared by every way of learning it. */
    static Event evictedEvent(
            String source, String podUid, String job, String pod, String node, String reason, Instant at) {
        return new Event(
                "pod/" + podUid + "/evicted",
                source,
                EventType.POD_EVICTED,
                job,
                at,
                new SchedulerData.PodEvicted(pod, node, reason));
    }

    /** Why the pod was evicted, or null when it was not. */
    static String eviction(Pod pod) {
        if (pod.getStatus() == null) {
            return null;
        }
        if ("Evicted".equals(pod.getStatus().getReason())) {
            return KubeContext.reason("Evicted", pod.getStatus().getMessage());
        }
        if (pod.getStatus().getConditions() != null) {
            for (PodCondition c : pod.getStatus().getConditions()) {
                if (c != null && "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())) {
                    return KubeContext.reason(c.getReason(), c.getMessage());
                }
            }
        }
        return null;
    }

    /** When the eviction began: the DisruptionTarget condition's transition time, else {@code now}. */
    private static Instant evictionTime(Pod pod, Instant now) {
        if (pod.getStatus().getConditions() != null) {
            for (PodCondition c : pod.getStatus().getConditions()) {
                if (c != null && "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())) {
                    return KubeContext.time(c.getLastTransitionTime(), now);
                }
            }
        }
        return now;
    }

    private Integer firstRank(PodScheme scheme, Pod pod, String job) {
        TrainingPods.Job info = training.job(job);
        Integer nodeRank = scheme.nodeRank(pod, info);
        if (nodeRank == null) {
            return null;
        }
        int ppn = info != null && info.procsPerNode() != null ? info.procsPerNode() : 1;
        return nodeRank * ppn;
    }

    private static boolean failed(ContainerStateTerminated t) {
        return "OOMKilled".equals(t.getReason()) || t.getExitCode() != null && t.getExitCode() != 0;
    }

    private static Set<String> failureKeys(Pod pod) {
        Set<String> keys = new HashSet<>();
        for (ContainerStatus cs : statuses(pod)) {
            for (ContainerStateTerminated t : terminations(cs)) {
                keys.add(failureKey(cs, t));
            }
        }
        return keys;
    }

    /** Identifies one termination of one container: its name and when it ended (or its restart count). */
    private static String failureKey(ContainerStatus cs, ContainerStateTerminated t) {
        String when = t.getFinishedAt() != null
                ? t.getFinishedAt()
                : "restart-" + (cs.getRestartCount() == null ? 0 : cs.getRestartCount());
        return cs.getName() + "/" + when;
    }

    private static List<ContainerStateTerminated> terminations(ContainerStatus cs) {
        List<ContainerStateTerminated> out = new ArrayList<>(2);
        if (cs.getLastState() != null && cs.getLastState().getTerminated() != null) {
            out.add(cs.getLastState().getTerminated());
        }
        if (cs.getState() != null && cs.getState().getTerminated() != null) {
            out.add(cs.getState().getTerminated());
        }
        return out;
    }

    private static List<ContainerStatus> statuses(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? List.of()
                : pod.getStatus().getContainerStatuses().stream()
                        .filter(Objects::nonNull)
                        .toList();
    }

    private String job(PodScheme scheme, Pod pod) {
        String name = scheme.name(pod, training);
        return name == null || name.isBlank()
                ? null
                : KubeContext.job(pod.getMetadata().getNamespace(), name);
    }

    /**
     * The pod's hostname, which torchelastic reports: {@code spec.hostname} when set (an Indexed Job's pod, as under
     * a TrainJob, is {@code <job>-<index>}, not its pod name), else the pod name.
     */
    private static String hostname(Pod pod) {
        String hostname =
                pod.getSpec() == null ? null : KubeContext.text(pod.getSpec().getHostname());
        return hostname != null ? hostname : pod.getMetadata().getName();
    }

    private static String node(Pod pod) {
        return pod.getSpec() == null ? null : KubeContext.text(pod.getSpec().getNodeName());
    }
}
