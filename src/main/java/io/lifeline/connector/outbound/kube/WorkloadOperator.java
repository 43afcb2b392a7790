package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Kueue Workloads ({@code kueue.x-k8s.io/v1beta1}): writes on each one what preempting its job would cost, for a
 * scheduler or an admission policy to weigh: {@code lifeline.io/checkpoint-age-seconds} (time since the job's
 * newest good checkpoint) and {@code lifeline.io/gpu-hours-at-risk} (GPUs held × that age). A Workload's job is
 * its controller owner (the PyTorchJob Kueue made it for), {@code namespace/owner-name}. Annotations are written
 * only when a value moved meaningfully (see {@link #meaningful}), so a steady job costs no API writes.
 */
final class WorkloadOperator {

    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("kueue.x-k8s.io")
            .withVersion("v1beta1")
            .withPlural("workloads")
            .withKind("Workload")
            .withNamespaced(true)
            .build();
    static final String AGE = "lifeline.io/checkpoint-age-seconds";
    static final String AT_RISK = "lifeline.io/gpu-hours-at-risk";
    /** An age is rewritten when it moved by this much or 10 %, whichever is more. */
    static final long AGE_STEP_SECONDS = 300;
    /** GPU-hours at risk are rewritten when they moved by this much or 10 %, whichever is more. */
    static final double AT_RISK_STEP = 0.5;

    private static final Logger LOG = Logger.getLogger(WorkloadOperator.class);

    /**
     * What an interruption of a job would cost now.
     *
     * @param checkpointAgeSeconds seconds since its newest good checkpoint
     * @param gpuHoursAtRisk       GPUs held × that age, in GPU-hours
     */
    record JobCost(long checkpointAgeSeconds, double gpuHoursAtRisk) {}

    private final KubernetesClient client;

    WorkloadOperator(KubernetesClient client) {
        this.client = client;
    }

    /**
     * One pass: lists the Workloads, asks {@code costs} for their jobs (jobs it does not know are left alone) and
     * annotates the Workloads whose figures moved.
     *
     * @return Workloads annotated in this pass
     */
    int publish(Function<Set<String>, Map<String, JobCost>> costs) {
        Map<String, List<GenericKubernetesResource>> byJob = byJob();
        if (byJob.isEmpty()) {
            return 0;
        }
        Map<String, JobCost> known = costs.apply(byJob.keySet());
        int written = 0;
        for (Map.Entry<String, List<GenericKubernetesResource>> e : byJob.entrySet()) {
            JobCost cost = known.get(e.getKey());
            if (cost == null) {
                continue;
            }
            for (GenericKubernetesResource wl : e.getValue()) {
                if (annotate(wl, cost)) {
                    written++;
                }
            }
        }
        return written;
    }

    /** Every Workload (one list call), by the job it stands for; Workloads without an owner are left out. */
    Map<String, List<GenericKubernetesResource>> byJob() {
        Map<String, List<GenericKubernetesResource>> byJob = new LinkedHashMap<>();
        for (GenericKubernetesResource wl : client.genericKubernetesResources(CONTEXT)
                .inAnyNamespace()
                .list()
                .getItems()) {
            String job = job(wl);
            if (job != null) {
                byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(wl);
            }
        }
        return byJob;
    }

    /**
     * Changes one Workload's annotations: {@code set} entries are written, keys mapped to null removed.
     *
     * @return whether the patch went through (a failure is logged and left to the next pass)
     */
    boolean annotate(GenericKubernetesResource wl, Map<String, String> set) {
        String ns = wl.getMetadata().getNamespace();
        String name = wl.getMetadata().getName();
        try {
            client.genericKubernetesResources(CONTEXT)
                    .inNamespace(ns)
                    .withName(name)
                    .edit(w -> {
                        Map<String, String> next = w.getMetadata().getAnnotations() == null
                                ? new HashMap<>()
                                : new HashMap<>(w.getMetadata().getAnnotations());
                        set.forEach((k, v) -> {
                            if (v == null) {
                                next.remove(k);
                            } else {
                                next.put(k, v);
                            }
                        });
                        w.getMetadata().setAnnotations(next);
                        return w;
                    });
            return true;
        } catch (RuntimeException ex) {
            LOG.debugf("Workload %s/%s: annotations not written: %s", ns, name, ex.getMessage());
            return false;
        }
    }

    private boolean annotate(GenericKubernetesResource wl, JobCost cost) {
        Map<String, String> a = wl.getMetadata().getAnnotations();
        String age = Long.toString(cost.checkpointAgeSeconds());
        String atRisk = String.format(Locale.ROOT, "%.2f", cost.gpuHoursAtRisk());
        boolean ageMoved = meaningful(a == null ? null : a.get(AGE), cost.checkpointAgeSeconds(), AGE_STEP_SECONDS);
        boolean riskMoved = meaningful(a == null ? null : a.get(AT_RISK), cost.gpuHoursAtRisk(), AT_RISK_STEP);
        if (!ageMoved && !riskMoved) {
            return false;
        }
        String ns = wl.getMetadata().getNamespace();
        String name = wl.getMetadata().getName();
        try {
            client.genericKubernetesResources(CONTEXT)
                    .inNamespace(ns)
                    .withName(name)
                    .edit(w -> {
                        Map<String, String> next = w.getMetadata().getAnnotations() == null
                                ? new HashMap<>()
                                : new HashMap<>(w.getMetadata().getAnnotations());
                        next.put(AGE, age);
                        next.put(AT_RISK, atRisk);
                        w.getMetadata().setAnnotations(next);
                        return w;
                    });
            return true;
        } catch (RuntimeException ex) {
            LOG.debugf("Workload %s/%s: cost annotations not written: %s", ns, name, ex.getMessage());
            return false;
        }
    }

    /** Whether {@code next} differs from the written value by at least {@code step} or 10 % of it; absent counts. */
    static boolean meaningful(String written, double next, double step) {
        if (written == null) {
            return true;
        }
        double before;
        try {
            before = Double.parseDouble(written.trim());
        } catch (NumberFormatException e) {
            return true;
        }
        return Math.abs(next - before) >= Math.max(step, Math.abs(before) * 0.1);
    }

    /** The job a Workload stands for: {@code namespace/<controller owner>} (or its first owner); null without one. */
    static String job(GenericKubernetesResource wl) {
        List<OwnerReference> owners = wl.getMetadata().getOwnerReferences();
        if (owners == null || owners.isEmpty()) {
            return null;
        }
        OwnerReference owner = owners.get(0);
        for (OwnerReference o : owners) {
            if (Boolean.TRUE.equals(o.getController())) {
                owner = o;
                break;
            }
        }
        String ns = wl.getMetadata().getNamespace();
        return (ns == null || ns.isBlank() ? "default" : ns) + "/" + owner.getName();
    }
}
