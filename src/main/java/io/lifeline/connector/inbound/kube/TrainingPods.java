package io.lifeline.connector.inbound.kube;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the watchers know about training pods and jobs, so that a Kubernetes Event about a pod can name its job
 * and a pod failure its ranks: pods by namespace/name (only pods of training jobs, removed when deleted) and jobs
 * by namespace/name (PyTorchJobs and TrainJobs, removed when deleted). Thread-safe.
 */
final class TrainingPods {

    /** A training pod: its uid, job, node and place among the job's replicas. */
    record Pod(String uid, String job, String node, String replicaType, Integer replicaIndex) {}

    /**
     * A watched job: processes per node, whether it has a Master replica, whether it has finished, and whether it is
     * a Trainer v2 TrainJob (whose pods are known by their JobSet's labels only).
     */
    record Job(Integer procsPerNode, boolean hasMaster, boolean finished, boolean trainJob) {}

    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();

    void putPod(String namespace, String name, Pod pod) {
        pods.put(namespace + "/" + name, pod);
    }

    Pod pod(String namespace, String name) {
        return pods.get(namespace + "/" + name);
    }

    void removePod(String namespace, String name) {
        pods.remove(namespace + "/" + name);
    }

    void putJob(String job, Job info) {
        jobs.put(job, info);
    }

    Job job(String job) {
        return jobs.get(job);
    }

    void removeJob(String job) {
        jobs.remove(job);
    }

    int pods() {
        return pods.size();
    }
}
