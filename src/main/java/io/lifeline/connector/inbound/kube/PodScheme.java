package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * How the pods of one kind of training job say which job they belong to and which node of it they are, so that one
 * {@link PodWatcher} serves every kind.
 */
enum PodScheme {

    /**
     * Kubeflow training operator (PyTorchJob): {@code training.kubeflow.org/job-name}; node rank from
     * {@code replica-type} / {@code replica-index} (the Master is node 0, Workers follow it).
     */
    PYTORCHJOB(PodWatcher.JOB_LABEL) {
        @Override
        String name(Pod pod, TrainingPods training) {
            return labels(pod).get(PodWatcher.JOB_LABEL);
        }

        @Override
        String replicaType(Pod pod) {
            return labels(pod).get(PodWatcher.REPLICA_TYPE);
        }

        @Override
        Integer replicaIndex(Pod pod) {
            return number(labels(pod).get(PodWatcher.REPLICA_INDEX));
        }

        @Override
        Integer nodeRank(Pod pod, TrainingPods.Job job) {
            Integer i = replicaIndex(pod);
            if (i == null) {
                return null;
            }
            boolean master = "master".equalsIgnoreCase(replicaType(pod));
            return master ? i : i + (job != null && job.hasMaster() ? 1 : 0);
        }

        @Override
        String noRank() {
            return "has no " + PodWatcher.REPLICA_INDEX + " label";
        }
    },

    /**
     * Kubeflow Trainer v2 (TrainJob): Trainer names the JobSet after the TrainJob, and JobSet labels each pod with
     * {@code jobset.sigs.k8s.io/jobset-name}; Trainer sets no label of its own on the pods, so a JobSet pod is a
     * TrainJob's only when a TrainJob of that name is watched. The trainer nodes are the replicated job {@code node},
     * an Indexed Job whose completion index is torchrun's node rank ({@code PET_NODE_RANK} is read from the
     * {@code batch.kubernetes.io/job-completion-index} annotation); initializer pods have no node rank.
     */
    TRAINJOB(TrainJobPods.JOBSET_NAME) {
        @Override
        String name(Pod pod, TrainingPods training) {
            String name = labels(pod).get(TrainJobPods.JOBSET_NAME);
            if (name == null || name.isBlank()) {
                return null;
            }
            TrainingPods.Job job =
                    training.job(KubeContext.job(pod.getMetadata().getNamespace(), name));
            return job != null && job.trainJob() ? name : null;
        }

        @Override
        String replicaType(Pod pod) {
            return labels(pod).get(TrainJobPods.REPLICATED_JOB);
        }

        @Override
        Integer replicaIndex(Pod pod) {
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            Integer index = annotations == null ? null : number(annotations.get(TrainJobPods.COMPLETION_INDEX));
            // The Job controller also sets it as a label (Kubernetes 1.28 and later).
            return index != null ? index : number(labels(pod).get(TrainJobPods.COMPLETION_INDEX));
        }

        @Override
        Integer nodeRank(Pod pod, TrainingPods.Job job) {
            return TrainJobPods.TRAINER_NODE.equals(replicaType(pod)) ? replicaIndex(pod) : null;
        }

        @Override
        String noRank() {
            return "is not a trainer node (" + TrainJobPods.REPLICATED_JOB + "=" + TrainJobPods.TRAINER_NODE
                    + ") with a " + TrainJobPods.COMPLETION_INDEX;
        }
    };

    private final String label;

    PodScheme(String label) {
        this.label = label;
    }

    /** The label every pod of this kind carries: what the pod informer selects on. */
    String label() {
        return label;
    }

    /** The name of the pod's job (in the pod's namespace), or null when the pod is not one of this kind's. */
    abstract String name(Pod pod, TrainingPods training);

    /** The pod's replica (PyTorchJob replica type, JobSet replicated job), or null. */
    abstract String replicaType(Pod pod);

    /** The pod's index within its replica, or null. */
    abstract Integer replicaIndex(Pod pod);

    /** The node rank of the pod within its job (its first process rank is this times processes per node), or null. */
    abstract Integer nodeRank(Pod pod, TrainingPods.Job job);

    /** Why {@link #nodeRank} is null, after "pod NAME ". */
    abstract String noRank();

    private static Map<String, String> labels(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static Integer number(String s) {
        if (s == null) {
            return null;
        }
        try {
            int i = Integer.parseInt(s);
            return i < 0 ? null : i;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The JobSet and Job labels of a TrainJob's pods. */
    static final class TrainJobPods {
        static final String JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";
        static final String REPLICATED_JOB = "jobset.sigs.k8s.io/replicatedjob-name";
        static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
        /** Trainer's replicated job of trainer nodes (its {@code constants.Node}). */
        static final String TRAINER_NODE = "node";

        private TrainJobPods() {}
    }
}
