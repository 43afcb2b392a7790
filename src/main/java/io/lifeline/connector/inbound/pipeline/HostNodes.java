package io.lifeline.connector.inbound.pipeline;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node of a training pod by its hostname (the pod name: torchelastic reports the hostname, the catalogue wants
 * the node). Filled by the Kubernetes connector's Pod informer; an unknown hostname maps to itself, as it does
 * on bare machines where hostname and node name agree. Bounded: at most {@value #MAX_ENTRIES} pods are held
 * (training pods are removed when deleted). Thread-safe.
 */
@ApplicationScoped
public class HostNodes {

    static final int MAX_ENTRIES = 200_000;

    private final Map<String, String> nodeByHost = new ConcurrentHashMap<>();

    /** The node for a hostname, the hostname itself when unknown. */
    public String nodeFor(String hostname) {
        if (hostname == null) {
            return null;
        }
        String node = nodeByHost.get(hostname);
        return node != null ? node : hostname;
    }

    /** Records where a pod runs. */
    public void put(String podName, String node) {
        if (podName == null || node == null) {
            return;
        }
        if (nodeByHost.size() >= MAX_ENTRIES && !nodeByHost.containsKey(podName)) {
            return; // a leak elsewhere must not grow this without bound; the hostname then stands for the node
        }
        nodeByHost.put(podName, node);
    }

    /** Forgets a pod. */
    public void remove(String podName) {
        if (podName != null) {
            nodeByHost.remove(podName);
        }
    }
}
