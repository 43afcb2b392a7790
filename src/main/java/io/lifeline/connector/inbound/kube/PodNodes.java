package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.config.KubeConfig;
import io.lifeline.connector.inbound.torchft.ReplicaNodes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * A TorchFT replica's node from the cluster: its manager advertises {@code socket.gethostname()}, which in a pod is the
 * pod's name, so the pod of that name in the job's namespace gives the node ({@code spec.nodeName}). One get per host,
 * remembered once placed; nothing without the Kubernetes connector.
 */
@ApplicationScoped
public class PodNodes implements ReplicaNodes {

    private static final Logger LOG = Logger.getLogger(PodNodes.class);

    private final KubeConfig kube;
    private final Instance<KubernetesClient> clients;
    private final Map<String, String> placed = new ConcurrentHashMap<>();

    PodNodes(KubeConfig kube, Instance<KubernetesClient> clients) {
        this.kube = kube;
        this.clients = clients;
    }

    @Override
    public String node(String namespace, String host) {
        if (!kube.enabled() || namespace == null || namespace.isEmpty()) {
            return null;
        }
        String key = namespace + "/" + host;
        String known = placed.get(key);
        if (known != null) {
            return known;
        }
        try {
            Pod pod = clients.get().pods().inNamespace(namespace).withName(host).get();
            String n =
                    pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (n != null) {
                placed.put(key, n);
            }
            return n;
        } catch (RuntimeException ex) {
            LOG.debugf("TorchFT: pod %s not read: %s", key, ex.getMessage());
            return null;
        }
    }
}
