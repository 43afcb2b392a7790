package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.config.KubeConfig;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import io.lifeline.policy.DemandReader;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Reads {@code pending-pods} demand triggers: the pods of a Deployment (by its own selector) that are
 * {@code Pending}, which is inference demand the cluster cannot place. One list call per reading; the training
 * watchers do not watch inference pods, and a trigger is read every half minute, not per change.
 */
@ApplicationScoped
public class PendingPods implements DemandReader {

    private final BooleanSupplier enabled;
    private final Supplier<KubernetesClient> clients;

    @Inject
    PendingPods(KubeConfig config, Instance<KubernetesClient> clients) {
        this.enabled = config::enabled;
        this.clients = clients::get;
    }

    /** For a given client (tests). */
    PendingPods(KubernetesClient client) {
        this.enabled = () -> true;
        this.clients = () -> client;
    }

    @Override
    public boolean serves(DemandTrigger.Source source) {
        return source instanceof DemandTrigger.PendingPods && enabled.getAsBoolean();
    }

    @Override
    public double read(DemandTrigger.Source source) {
        DemandTrigger.PendingPods p = (DemandTrigger.PendingPods) source;
        KubernetesClient client = clients.get();
        Deployment d = client.apps()
                .deployments()
                .inNamespace(p.namespace())
                .withName(p.workload())
                .get();
        if (d == null) {
            throw new IllegalStateException("no Deployment " + p.namespace() + "/" + p.workload());
        }
        LabelSelector selector = d.getSpec() == null ? null : d.getSpec().getSelector();
        if (selector == null
                || selector.getMatchLabels() == null
                || selector.getMatchLabels().isEmpty()) {
            throw new IllegalStateException(
                    "Deployment " + p.namespace() + "/" + p.workload() + " has no matchLabels selector");
        }
        long pending = 0;
        for (Pod pod : client.pods()
                .inNamespace(p.namespace())
                .withLabels(selector.getMatchLabels())
                .list()
                .getItems()) {
            if (pod.getStatus() != null && "Pending".equals(pod.getStatus().getPhase())) {
                pending++;
            }
        }
        return pending;
    }
}
