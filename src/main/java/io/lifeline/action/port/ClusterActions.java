package io.lifeline.action.port;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What actions ask of the cluster. Implemented with fabric8 against Kubernetes, and by the demo simulator in the
 * quick start. Every call is idempotent and answers a typed outcome instead of throwing for expected refusals.
 */
public interface ClusterActions {

    /** Whether this implementation can act at all (a cluster is configured and reachable, or the demo runs). */
    boolean available();

    ClusterOutcome cordon(String node);

    ClusterOutcome uncordon(String node);

    /** The training pods ({@code namespace/pod}) on a node, with the job each belongs to. */
    List<PodRef> trainingPodsOn(String node);

    /**
     * The training job ({@code namespace/name}) a pod belongs to, or null when the pod is gone or belongs to no
     * training job. Throws when the cluster cannot be asked (a null would read as "not a training pod").
     */
    default String jobOfPod(String namespace, String pod) {
        return null;
    }

    /**
     * The nodes the pods of a training job ({@code namespace/name}) run on now, as the cluster says; empty when this
     * cluster cannot say (none configured). What a trainer's report of where the job runs is checked against when its
     * sender may not speak for the nodes (a token limited to namespaces). Throws when the cluster cannot be asked.
     */
    default Optional<Set<String>> nodesOfJob(String job) {
        return Optional.empty();
    }

    /**
     * One eviction attempt through the Eviction API ({@code policy/v1}). A PodDisruptionBudget refusal answers
     * RETRY_LATER (the caller retries until its deadline); {@code deleteIfRefused} deletes the pod instead.
     */
    ClusterOutcome evict(PodRef pod, boolean deleteIfRefused);

    /**
     * The unfinished training pods of one job ({@code namespace/name}) scheduled on a node; empty when it has none
     * there. Throws when the cluster cannot be asked (an empty list would read as "nothing to replace").
     */
    default List<PodRef> jobPodsOn(String job, String node) {
        return List.of();
    }

    /**
     * Deletes a pod (its graceful termination period applies), so that its job's controller recreates it: DELETED, or
     * NOT_FOUND when it is gone already (what the caller wanted).
     */
    default ClusterOutcome deletePod(PodRef pod) {
        return ClusterOutcome.of(ClusterOutcome.Result.FAILED, "this cluster cannot delete pods");
    }

    /** Sets a job's worker replicas (PyTorchJob {@code Worker} replicas). */
    ClusterOutcome scaleWorkers(String job, int workers);

    /** Sets or clears {@code runPolicy.suspend}. */
    ClusterOutcome suspend(String job, boolean suspended);

    /** Writes the annotation naming the checkpoint the job restarts from. */
    ClusterOutcome annotateRestore(String job, String checkpointId, String uri);

    /**
     * A training pod.
     *
     * @param namespace the pod's namespace
     * @param name      the pod's name
     * @param job       the job it belongs to ({@code namespace/name}), or null if not a known job's
     */
    record PodRef(String namespace, String name, String job) {}
}
