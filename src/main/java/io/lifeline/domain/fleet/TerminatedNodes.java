package io.lifeline.domain.fleet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounds how many terminated nodes stay listed as history. Spot fleets churn node names, so without a bound
 * the model would grow with every instance ever seen; the oldest terminations are forgotten first.
 */
final class TerminatedNodes {

    /** A termination as recorded: the node may since have been re-registered (then it is not forgotten). */
    record Entry(NodeState node, long since) {}

    private final int capacity;
    private final ArrayDeque<Entry> order = new ArrayDeque<>();

    TerminatedNodes(int capacity) {
        this.capacity = capacity;
    }

    /** Terminations held (a node terminated, registered again and terminated again is held twice). */
    int size() {
        return order.size();
    }

    /** The terminations held, oldest first. */
    List<Entry> entries() {
        return new ArrayList<>(order);
    }

    /** Records a termination; returns the entries that fell out and may be forgotten. */
    List<Entry> add(NodeState node, long since) {
        order.addLast(new Entry(node, since));
        List<Entry> out = new ArrayList<>();
        while (order.size() > capacity) {
            out.add(order.pollFirst());
        }
        return out;
    }
}
