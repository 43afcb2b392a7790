package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lifeline.domain.event.JobData;
import java.util.List;
import java.util.Map;

/**
 * Recognises a TorchFT job (pytorch/torchft) from its spec: TorchFT's manager finds its Lighthouse through the
 * {@code TORCHFT_LIGHTHOUSE} environment variable of the training containers ({@code torchft/manager.py}: {@code
 * lighthouse_addr or os.environ["TORCHFT_LIGHTHOUSE"]}), so a job whose pod template sets it is one whose replica
 * groups heal through a Lighthouse quorum. Anywhere in the spec counts (a PyTorchJob's replica templates, a
 * TrainJob's {@code spec.trainer.env}, a Volcano Job's task templates): the variable is specific to TorchFT.
 */
final class TorchFt {

    /** The environment variable TorchFT's manager reads the Lighthouse's address from. */
    static final String LIGHTHOUSE_ENV = "TORCHFT_LIGHTHOUSE";

    private static final int MAX_DEPTH = 24;

    private TorchFt() {}

    /** How the job heals itself, or null when nothing in its spec names a Lighthouse. */
    static JobData.SelfHealing of(GenericKubernetesResource job) {
        Object spec = job.getAdditionalProperties().get("spec");
        Object[] found = new Object[1];
        if (!find(spec, 0, found)) {
            return null;
        }
        String value = found[0] instanceof String s && !s.isBlank() ? s.trim() : null;
        return new JobData.SelfHealing(JobData.SelfHealing.TORCHFT, value);
    }

    /** Whether {@code node} holds an env entry named {@link #LIGHTHOUSE_ENV}; its value (or null) in {@code out}. */
    private static boolean find(Object node, int depth, Object[] out) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (node instanceof Map<?, ?> m) {
            Object env = m.get("env");
            if (env instanceof List<?> entries) {
                for (Object e : entries) {
                    if (e instanceof Map<?, ?> var && LIGHTHOUSE_ENV.equals(var.get("name"))) {
                        // A valueFrom (a ConfigMap, a Secret) names no address Lifeline can read here.
                        out[0] = var.get("value");
                        return true;
                    }
                }
            }
            for (Object v : m.values()) {
                if (find(v, depth + 1, out)) {
                    return true;
                }
            }
        } else if (node instanceof List<?> l) {
            for (Object v : l) {
                if (find(v, depth + 1, out)) {
                    return true;
                }
            }
        }
        return false;
    }
}
