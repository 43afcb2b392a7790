package io.lifeline.domain.fleet;

/** Read-only lookup of node facts, for the parts of the model that group by pool or capacity type. */
public interface NodeDirectory {

    /** The node's facts, or {@code null} when the node is unknown. */
    NodeInfo find(String node);
}
