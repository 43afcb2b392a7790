package io.lifeline.domain.fleet;

import java.util.List;

/**
 * The whole fleet's state as plain, immutable values: what a checkpoint of the model keeps of the fleet, so that a
 * restart restores it ({@link Fleet#restore}) instead of rebuilding it from every stored event, and keeps nodes whose
 * events the log no longer holds. {@link Fleet#save()} takes it; applying the same events afterwards to the saved
 * fleet and to a fleet restored from it gives the same reads.
 *
 * @param changes       the fleet's change stamp counter (see {@link Fleet#snapshot})
 * @param nodes         every node, in no particular order
 * @param terminations  the terminated nodes kept listed as history, oldest termination first: the order in which they
 *                      are forgotten
 * @param reliability   the reliability ledger's days (service and interruptions per group of facts)
 */
public record SavedFleet(
        long changes, List<SavedNode> nodes, List<Termination> terminations, List<SavedReliabilityDay> reliability) {

    public SavedFleet {
        nodes = List.copyOf(nodes);
        terminations = List.copyOf(terminations);
        reliability = reliability == null ? List.of() : List.copyOf(reliability);
    }

    /** A fleet without reliability history. */
    public SavedFleet(long changes, List<SavedNode> nodes, List<Termination> terminations) {
        this(changes, nodes, terminations, List.of());
    }

    /**
     * A termination as recorded: the node is forgotten when it falls out of the history unless it came back since.
     *
     * @param node   node name
     * @param since  the time of the termination
     */
    public record Termination(String node, long since) {}
}
