package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * One scheduler's PodGroups: lists them by the job each stands for and patches their annotations. A PodGroup's job is
 * its controller owner, {@code namespace/owner-name}: KAI Scheduler's pod grouper owns it by the pods' top owner (the
 * PyTorchJob, TrainJob...), Volcano's job controller by the Volcano Job.
 */
final class PodGroupOperator {

    /** KAI Scheduler's PodGroup (pkg/apis/scheduling/v2alpha2, CRD podgroups.scheduling.run.ai). */
    static final ResourceDefinitionContext KAI = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.run.ai")
            .withVersion("v2alpha2")
            .withPlural("podgroups")
            .withKind("PodGroup")
            .withNamespaced(true)
            .build();

    /** Volcano's PodGroup (volcano.sh/apis scheduling/v1beta1, CRD podgroups.scheduling.volcano.sh). */
    static final ResourceDefinitionContext VOLCANO = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1")
            .withPlural("podgroups")
            .withKind("PodGroup")
            .withNamespaced(true)
            .build();

    private static final Logger LOG = Logger.getLogger(PodGroupOperator.class);

    private final KubernetesClient client;
    private final ResourceDefinitionContext context;
    private final String scheduler;

    PodGroupOperator(KubernetesClient client, ResourceDefinitionContext context, String scheduler) {
        this.client = client;
        this.context = context;
        this.scheduler = scheduler;
    }

    String scheduler() {
        return scheduler;
    }

    /**
     * Every PodGroup (one list call), by the job it stands for; those without an owner are left out. A cluster without
     * the scheduler's CRD has none.
     */
    Map<String, List<GenericKubernetesResource>> byJob() {
        Map<String, List<GenericKubernetesResource>> byJob = new LinkedHashMap<>();
        List<GenericKubernetesResource> all;
        try {
            all = client.genericKubernetesResources(context)
                    .inAnyNamespace()
                    .list()
                    .getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                LOG.debugf("%s PodGroups: none (the CRD is not installed)", scheduler);
                return byJob;
            }
            throw e;
        }
        for (GenericKubernetesResource pg : all) {
            String job = WorkloadOperator.job(pg);
            if (job != null) {
                byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(pg);
            }
        }
        return byJob;
    }

    /**
     * Changes one PodGroup's annotations: entries with a value are written, keys mapped to null removed.
     *
     * @return whether the patch went through (a failure is logged and left to the next pass)
     */
    boolean annotate(GenericKubernetesResource pg, Map<String, String> set) {
        String ns = pg.getMetadata().getNamespace();
        String name = pg.getMetadata().getName();
        try {
            client.genericKubernetesResources(context)
                    .inNamespace(ns)
                    .withName(name)
                    .edit(p -> {
                        p.getMetadata()
                                .setAnnotations(
                                        PodGroupMarks.applied(p.getMetadata().getAnnotations(), set));
                        return p;
                    });
            return true;
        } catch (RuntimeException ex) {
            LOG.debugf("%s PodGroup %s/%s: annotations not written: %s", scheduler, ns, name, ex.getMessage());
            return false;
        }
    }
}
