package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Kubeflow Trainer v2 TrainJobs ({@code trainer.kubeflow.org/v1alpha1}, as generic resources): a rescale sets
 * {@code spec.trainer.numNodes} (the trainer controller resizes the JobSet), preempt and resume set
 * {@code spec.suspend}, and a restore writes the same annotations as on a PyTorchJob. Each call reads the job first
 * and writes only a difference (NOOP otherwise); a job that is no TrainJob answers NOT_FOUND.
 */
final class TrainJobOperator {

    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("trainer.kubeflow.org")
            .withVersion("v1alpha1")
            .withPlural("trainjobs")
            .withKind("TrainJob")
            .withNamespaced(true)
            .build();

    private final KubernetesClient client;

    TrainJobOperator(KubernetesClient client) {
        this.client = client;
    }

    ClusterOutcome scaleWorkers(String job, int nodes) {
        return act("scale TrainJob " + job + " to " + nodes + " nodes", job, r -> {
            if (nodes < 1) {
                return Outcomes.of(Result.FAILED, nodes + " nodes is not a size for TrainJob " + job);
            }
            Object now = trainer(r).get("numNodes");
            if (Objects.equals(PyTorchJobOperator.integer(now), nodes)) {
                return Outcomes.of(Result.NOOP, "TrainJob " + job + " already has " + nodes + " nodes");
            }
            resource(job).edit(j -> {
                trainer(j).put("numNodes", nodes);
                return j;
            });
            return Outcomes.of(
                    Result.PATCHED, "TrainJob " + job + " numNodes " + (now == null ? "unset" : now) + " -> " + nodes);
        });
    }

    ClusterOutcome suspend(String job, boolean suspended) {
        return act((suspended ? "suspend" : "resume") + " TrainJob " + job, job, r -> {
            Object v = spec(r).get("suspend");
            boolean now = Boolean.TRUE.equals(v) || "true".equals(v);
            if (now == suspended) {
                return Outcomes.of(
                        Result.NOOP, "TrainJob " + job + " already " + (suspended ? "suspended" : "running"));
            }
            resource(job).edit(j -> {
                spec(j).put("suspend", suspended);
                return j;
            });
            return Outcomes.of(Result.PATCHED, "TrainJob " + job + (suspended ? " suspended" : " resumed"));
        });
    }

    ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return act("annotate TrainJob " + job + " to restore from " + checkpointId, job, r -> {
            Map<String, String> a = r.getMetadata().getAnnotations();
            if (a != null
                    && Objects.equals(a.get(PyTorchJobOperator.RESTORE_FROM), checkpointId)
                    && Objects.equals(a.get(PyTorchJobOperator.RESTORE_URI), uri)) {
                return Outcomes.of(Result.NOOP, "TrainJob " + job + " already restores from " + checkpointId);
            }
            resource(job).edit(j -> {
                Map<String, String> next = j.getMetadata().getAnnotations() == null
                        ? new HashMap<>()
                        : new HashMap<>(j.getMetadata().getAnnotations());
                next.put(PyTorchJobOperator.RESTORE_FROM, checkpointId);
                if (uri == null) {
                    next.remove(PyTorchJobOperator.RESTORE_URI);
                } else {
                    next.put(PyTorchJobOperator.RESTORE_URI, uri);
                }
                j.getMetadata().setAnnotations(next);
                return j;
            });
            return Outcomes.of(Result.PATCHED, "TrainJob " + job + " restores from " + checkpointId);
        });
    }

    private ClusterOutcome act(String what, String job, Function<GenericKubernetesResource, ClusterOutcome> decide) {
        if (Outcomes.job(job) == null) {
            return Outcomes.of(Result.FAILED, what + ": expected namespace/name");
        }
        try {
            GenericKubernetesResource r = resource(job).get();
            if (r == null) {
                return Outcomes.of(Result.NOT_FOUND, what + ": no TrainJob " + job);
            }
            return decide.apply(r);
        } catch (RuntimeException e) {
            return Outcomes.failure(what, e);
        }
    }

    private Resource<GenericKubernetesResource> resource(String job) {
        String[] nn = Outcomes.job(job);
        return client.genericKubernetesResources(CONTEXT).inNamespace(nn[0]).withName(nn[1]);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().computeIfAbsent("spec", k -> new HashMap<>());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> trainer(GenericKubernetesResource r) {
        return (Map<String, Object>) spec(r).computeIfAbsent("trainer", k -> new HashMap<>());
    }
}
