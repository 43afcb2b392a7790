package io.lifeline.connector.inbound.torchft;

/** Where a TorchFT replica runs: the node of the host its manager advertises. */
public interface ReplicaNodes {

    /** The node of the pod named {@code host} in {@code namespace}, or null when it cannot be placed. */
    String node(String namespace, String host);
}
