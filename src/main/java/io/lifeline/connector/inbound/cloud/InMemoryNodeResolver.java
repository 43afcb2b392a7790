package io.lifeline.connector.inbound.cloud;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link NodeResolver} fed with the fleet's nodes, typically from each Node's {@code spec.providerID}.
 * Lookups accept an instance id, a provider id or an EC2 ARN ({@code arn:aws:ec2:...:instance/i-...});
 * they ignore letter case (Azure names are case-insensitive, AWS and GCE ids are lower case anyway).
 * Holds one entry per registered node and alias; thread-safe.
 */
public final class InMemoryNodeResolver implements NodeResolver {

    private final Map<String, String> nodeByKey = new ConcurrentHashMap<>();

    /**
     * Registers a node by its provider id; also under its instance id and, for an Azure scale-set instance
     * ({@code SET_N}), under {@code _SET_N}. Throws {@link IllegalArgumentException} for an unparseable id.
     */
    public InMemoryNodeResolver register(String nodeName, String providerId) {
        ProviderId id = ProviderId.parse(providerId);
        nodeByKey.put(key(providerId), nodeName);
        nodeByKey.put(key(id.instanceId()), nodeName);
        if (ProviderId.AZURE.equals(id.provider()) && id.instanceId().contains("_")) {
            nodeByKey.put(key("_" + id.instanceId()), nodeName);
        }
        return this;
    }

    /** Registers a node under an instance id or any other name notices use for it (for example an Azure VM name). */
    public InMemoryNodeResolver registerInstance(String instanceId, String nodeName) {
        nodeByKey.put(key(instanceId), nodeName);
        return this;
    }

    /** Forgets every key of a node (when it leaves the fleet). */
    public void forget(String nodeName) {
        nodeByKey.values().removeIf(nodeName::equals);
    }

    @Override
    public String nodeFor(String instanceOrProviderId) {
        if (instanceOrProviderId == null || instanceOrProviderId.isBlank()) {
            return null;
        }
        String node = nodeByKey.get(key(instanceOrProviderId));
        if (node != null) {
            return node;
        }
        int arn = instanceOrProviderId.indexOf(":instance/");
        if (instanceOrProviderId.startsWith("arn:") && arn > 0) {
            return nodeByKey.get(key(instanceOrProviderId.substring(arn + ":instance/".length())));
        }
        if (instanceOrProviderId.contains("://")) {
            try {
                return nodeByKey.get(key(ProviderId.parse(instanceOrProviderId).instanceId()));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return null;
    }

    public int size() {
        return nodeByKey.size();
    }

    private static String key(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }
}
