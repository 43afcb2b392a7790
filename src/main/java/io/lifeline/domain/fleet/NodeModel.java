package io.lifeline.domain.fleet;

import io.lifeline.domain.event.Event;
import java.util.List;

/**
 * The node part of the model (the fleet): applies node and GPU events and tells which of them the jobs on
 * the node must hear about. Also the directory of node facts (pool, capacity type) the jobs group by.
 */
public interface NodeModel extends NodeDirectory {

    /**
     * Applies a node or GPU event.
     *
     * @return what it did (changed, a repeat, or not applied with the reason) and the signals it raised for the jobs
     *         on the node (possibly none)
     */
    NodeChange change(Event e);

    /**
     * Applies a node or GPU event.
     *
     * @return the signals it raised for the jobs on the node (possibly none)
     */
    default List<NodeSignal> apply(Event e) {
        return change(e).signals();
    }
}
