package io.lifeline.connector.inbound.cloud;

/**
 * Finds the Kubernetes node a cloud notice is about. Cloud notices name machines by the provider's own id
 * (an EC2 instance id, an Azure VM name, a GCE instance name, sometimes an ARN or a full provider id); the
 * catalogue names nodes.
 */
@FunctionalInterface
public interface NodeResolver {

    /**
     * The node name for an instance id, or for a full provider id ({@code aws:///zone/i-...}); {@code null}
     * when the machine is not (or no longer) a known node.
     */
    String nodeFor(String instanceOrProviderId);
}
