package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.action.port.ClusterActions.PodRef;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Training pods: the ones on a node (Kubeflow's {@code training.kubeflow.org/job-name} label; the job is
 * {@code namespace/<job-name>}), their eviction through the Eviction API ({@code policy/v1}) and, when an action
 * allows it after refusals, their deletion.
 *
 * <p>Evictions go through a client whose own retries are off: fabric8 retries HTTP 429 on its own, which would
 * hide a PodDisruptionBudget refusal inside one call. Here one call is one attempt; the action retries until its
 * deadline.
 */
final class PodOperator {

    static final String JOB_LABEL = "training.kubeflow.org/job-name";
    /**
     * Kubeflow Trainer v2 puts no label of its own on pods: it names the JobSet after the TrainJob, and JobSet labels
     * every pod with its name. A plain JobSet's pods read as a job Lifeline does not track, which the gate allows.
     */
    static final String TRAINJOB_LABEL = "jobset.sigs.k8s.io/jobset-name";

    private final KubernetesClient client;
    private final KubernetesClient evictions;

    /**
     * @param client    for reads and deletions
     * @param evictions for evictions: the same cluster, with {@code requestRetryBackoffLimit} 0
     */
    PodOperator(KubernetesClient client, KubernetesClient evictions) {
        this.client = client;
        this.evictions = evictions;
    }

    /** The training pods (of PyTorchJobs and TrainJobs) scheduled on a node that have not finished, with their job. */
    List<PodRef> trainingPodsOn(String node) {
        // Training pods only (by label), filtered by node here: not every API server (nor the test mock) takes a
        // spec.nodeName field selector together with a label selector.
        List<PodRef> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String label : List.of(JOB_LABEL, TRAINJOB_LABEL)) {
            for (Pod p : client.pods().inAnyNamespace().withLabel(label).list().getItems()) {
                if (p.getSpec() == null || !node.equals(p.getSpec().getNodeName()) || finished(p)) {
                    continue;
                }
                String ns = p.getMetadata().getNamespace();
                if (seen.add(ns + "/" + p.getMetadata().getName())) {
                    out.add(new PodRef(
                            ns,
                            p.getMetadata().getName(),
                            jobOf(ns, p.getMetadata().getLabels())));
                }
            }
        }
        return out;
    }

    /**
     * The nodes a job's unfinished pods are scheduled on: one list of the job's namespace by each job label (its
     * PyTorchJob's, or its TrainJob's JobSet's).
     */
    Set<String> nodesOfJob(String job) {
        int slash = job.indexOf('/');
        String ns = job.substring(0, slash);
        String name = job.substring(slash + 1);
        Set<String> nodes = new java.util.TreeSet<>();
        for (String label : List.of(JOB_LABEL, TRAINJOB_LABEL)) {
            for (Pod p :
                    client.pods().inNamespace(ns).withLabel(label, name).list().getItems()) {
                if (p.getSpec() != null && p.getSpec().getNodeName() != null && !finished(p)) {
                    nodes.add(p.getSpec().getNodeName());
                }
            }
        }
        return nodes;
    }

    /**
     * A job's pods scheduled on a node that have not succeeded: one list of the job's namespace by each job label (its
     * PyTorchJob's, or its TrainJob's JobSet's), filtered by node here (as {@link #trainingPodsOn} does).
     */
    List<PodRef> jobPodsOn(String job, String node) {
        String[] nsName = Outcomes.job(job);
        if (nsName == null) {
            return List.of();
        }
        List<PodRef> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String label : List.of(JOB_LABEL, TRAINJOB_LABEL)) {
            for (Pod p : client.pods()
                    .inNamespace(nsName[0])
                    .withLabel(label, nsName[1])
                    .list()
                    .getItems()) {
                // A failed pod is kept listed: it is one of those to replace (its controller recreates it once gone).
                boolean succeeded = p.getStatus() != null
                        && "Succeeded".equals(p.getStatus().getPhase());
                if (p.getSpec() == null || !node.equals(p.getSpec().getNodeName()) || succeeded) {
                    continue;
                }
                if (seen.add(p.getMetadata().getName())) {
                    out.add(new PodRef(nsName[0], p.getMetadata().getName(), job));
                }
            }
        }
        return out;
    }

    /**
     * The job of one pod, read from the API server (an eviction names only the pod): its PyTorchJob
     * ({@value #JOB_LABEL}) or TrainJob's JobSet ({@value #TRAINJOB_LABEL}) label; null for a pod that is gone or has neither.
     */
    String jobOfPod(String namespace, String name) {
        Pod p = client.pods().inNamespace(namespace).withName(name).get();
        return p == null ? null : jobOf(namespace, p.getMetadata().getLabels());
    }

    private static String jobOf(String namespace, Map<String, String> labels) {
        if (labels == null) {
            return null;
        }
        String job = labels.get(JOB_LABEL) != null ? labels.get(JOB_LABEL) : labels.get(TRAINJOB_LABEL);
        return job == null ? null : namespace + "/" + job;
    }

    private static boolean finished(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /**
     * One eviction attempt: EVICTED (201), RETRY_LATER (429, a PodDisruptionBudget refuses for now), NOT_FOUND (the
     * pod is gone already: what the caller wanted). A refusal with {@code deleteIfRefused} deletes the pod instead.
     */
    ClusterOutcome evict(PodRef ref, boolean deleteIfRefused) {
        String what = "evict pod " + ref.namespace() + "/" + ref.name();
        ClusterOutcome attempt;
        try {
            // A policy/v1 Eviction: the client's argument-less evict() still sends policy/v1beta1, which Kubernetes
            // no longer serves.
            boolean evicted = evictions
                    .pods()
                    .inNamespace(ref.namespace())
                    .withName(ref.name())
                    .evict(new io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder()
                            .withNewMetadata()
                            .withName(ref.name())
                            .withNamespace(ref.namespace())
                            .endMetadata()
                            .build());
            attempt = evicted
                    ? Outcomes.of(Result.EVICTED, "pod " + ref.namespace() + "/" + ref.name() + " evicted")
                    : Outcomes.of(Result.RETRY_LATER, what + ": refused for now (HTTP 429, PodDisruptionBudget)");
        } catch (RuntimeException e) {
            attempt = Outcomes.failure(what, e);
        }
        if (attempt.result() == Result.RETRY_LATER && deleteIfRefused) {
            return delete(ref, attempt.detail());
        }
        return attempt;
    }

    /** Deletes a pod (its graceful termination period applies); NOT_FOUND when it is gone already. */
    ClusterOutcome delete(PodRef ref, String why) {
        String what = "delete pod " + ref.namespace() + "/" + ref.name();
        try {
            List<StatusDetails> deleted = client.pods()
                    .inNamespace(ref.namespace())
                    .withName(ref.name())
                    .delete();
            if (deleted == null || deleted.isEmpty()) {
                return Outcomes.of(Result.NOT_FOUND, what + ": no such pod");
            }
            return Outcomes.of(
                    Result.DELETED,
                    "pod " + ref.namespace() + "/" + ref.name() + " deleted" + (why == null ? "" : " after: " + why));
        } catch (RuntimeException e) {
            return Outcomes.failure(what, e);
        }
    }
}
