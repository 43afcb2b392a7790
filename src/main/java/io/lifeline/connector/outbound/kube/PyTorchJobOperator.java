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
import java.util.function.UnaryOperator;

/**
 * Kubeflow PyTorchJobs ({@code kubeflow.org/v1}, as generic resources): Worker replicas within
 * {@code spec.elasticPolicy} min/max, {@code spec.runPolicy.suspend}, and the annotations naming the checkpoint
 * the job restarts from ({@code lifeline.io/restore-from}, {@code lifeline.io/restore-uri}) for the job's
 * launcher to read. Each call reads the job first and writes only a difference (NOOP otherwise).
 */
final class PyTorchJobOperator {

    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withPlural("pytorchjobs")
            .withKind("PyTorchJob")
            .withNamespaced(true)
            .build();
    static final String RESTORE_FROM = "lifeline.io/restore-from";
    static final String RESTORE_URI = "lifeline.io/restore-uri";

    private final KubernetesClient client;

    PyTorchJobOperator(KubernetesClient client) {
        this.client = client;
    }

    ClusterOutcome scaleWorkers(String job, int workers) {
        return act("scale job " + job + " to " + workers + " workers", job, r -> {
            Map<String, Object> worker = map(r.getAdditionalProperties(), "spec", "pytorchReplicaSpecs", "Worker");
            if (worker == null) {
                return Outcomes.of(Result.FAILED, "job " + job + " has no Worker replica spec");
            }
            Map<String, Object> elastic = map(r.getAdditionalProperties(), "spec", "elasticPolicy");
            Integer min = elastic == null ? null : integer(elastic.get("minReplicas"));
            Integer max = elastic == null ? null : integer(elastic.get("maxReplicas"));
            if (workers < 0 || min != null && workers < min || max != null && workers > max) {
                return Outcomes.of(
                        Result.FAILED,
                        workers + " workers is outside the elastic bounds " + (min == null ? "0" : min) + ".."
                                + (max == null ? "any" : max) + " of job " + job);
            }
            Integer now = integer(worker.get("replicas"));
            if (Objects.equals(now, workers)) {
                return Outcomes.of(Result.NOOP, "job " + job + " already has " + workers + " workers");
            }
            edit(job, j -> {
                map(j.getAdditionalProperties(), "spec", "pytorchReplicaSpecs", "Worker")
                        .put("replicas", workers);
                return j;
            });
            return Outcomes.of(
                    Result.PATCHED, "job " + job + " workers " + (now == null ? "unset" : now) + " -> " + workers);
        });
    }

    ClusterOutcome suspend(String job, boolean suspended) {
        return act((suspended ? "suspend" : "resume") + " job " + job, job, r -> {
            Map<String, Object> run = map(r.getAdditionalProperties(), "spec", "runPolicy");
            boolean now = run != null && (Boolean.TRUE.equals(run.get("suspend")) || "true".equals(run.get("suspend")));
            if (now == suspended) {
                return Outcomes.of(Result.NOOP, "job " + job + " already " + (suspended ? "suspended" : "running"));
            }
            edit(job, j -> {
                Map<String, Object> spec = map(j.getAdditionalProperties(), "spec");
                @SuppressWarnings("unchecked")
                Map<String, Object> policy =
                        (Map<String, Object>) spec.computeIfAbsent("runPolicy", k -> new HashMap<>());
                policy.put("suspend", suspended);
                return j;
            });
            return Outcomes.of(Result.PATCHED, "job " + job + (suspended ? " suspended" : " resumed"));
        });
    }

    ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return act("annotate job " + job + " to restore from " + checkpointId, job, r -> {
            Map<String, String> a = r.getMetadata().getAnnotations();
            String id = a == null ? null : a.get(RESTORE_FROM);
            String u = a == null ? null : a.get(RESTORE_URI);
            if (Objects.equals(id, checkpointId) && Objects.equals(u, uri)) {
                return Outcomes.of(Result.NOOP, "job " + job + " already restores from " + checkpointId);
            }
            edit(job, j -> {
                Map<String, String> annotations = j.getMetadata().getAnnotations() == null
                        ? new HashMap<>()
                        : new HashMap<>(j.getMetadata().getAnnotations());
                annotations.put(RESTORE_FROM, checkpointId);
                if (uri == null) {
                    annotations.remove(RESTORE_URI);
                } else {
                    annotations.put(RESTORE_URI, uri);
                }
                j.getMetadata().setAnnotations(annotations);
                return j;
            });
            return Outcomes.of(Result.PATCHED, "job " + job + " restores from " + checkpointId);
        });
    }

    /** Reads the job and decides; errors and a missing job become outcomes. */
    private ClusterOutcome act(String what, String job, Function<GenericKubernetesResource, ClusterOutcome> decide) {
        if (Outcomes.job(job) == null) {
            return Outcomes.of(Result.FAILED, what + ": expected namespace/name");
        }
        try {
            GenericKubernetesResource r = resource(job).get();
            if (r == null) {
                return Outcomes.of(Result.NOT_FOUND, what + ": no PyTorchJob " + job);
            }
            return decide.apply(r);
        } catch (RuntimeException e) {
            return Outcomes.failure(what, e);
        }
    }

    private void edit(String job, UnaryOperator<GenericKubernetesResource> change) {
        resource(job).edit(change);
    }

    private Resource<GenericKubernetesResource> resource(String job) {
        String[] nn = Outcomes.job(job);
        return client.genericKubernetesResources(CONTEXT).inNamespace(nn[0]).withName(nn[1]);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> root, String... path) {
        Object v = root;
        for (String p : path) {
            if (!(v instanceof Map<?, ?> m)) {
                return null;
            }
            v = m.get(p);
        }
        return v instanceof Map<?, ?> ? (Map<String, Object>) v : null;
    }

    static Integer integer(Object v) {
        if (v instanceof Number n) {
            return n.intValue();
        }
        if (v instanceof String s) {
            try {
                return Integer.valueOf(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
