package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.reliability.PoolRate;
import java.util.Collection;
import java.util.Set;

/** Read-only lookup of node facts, for the parts of the model that group by pool or capacity type. */
public interface NodeDirectory {

    /** The node's facts, or {@code null} when the node is unknown. */
    NodeInfo find(String node);

    /**
     * The capacity types of the pool's live nodes (registered and not terminated), so that a placement check can
     * tell whether a pool offers capacity other than spot. Empty when the pool is unknown, and for a directory
     * that cannot tell.
     */
    default Set<CapacityType> capacityTypesIn(String pool) {
        return Set.of();
    }

    /**
     * Changes whenever what {@link #find} and {@link #capacityTypesIn} answer may change: a node's facts, a node added
     * or forgotten, terminated or back. What is worked out from those answers may be kept while it stays the same.
     * Negative for a directory that cannot tell: nothing worked out from it may be kept.
     */
    default long factsVersion() {
        return -1;
    }

    /**
     * The observed interruption rate of the pools' nodes (of one capacity type, or all when null) over the
     * reliability's advice window: the seam through which the fleet's MTBF per pool reaches the interval advice and
     * a replay of other settings. Null for a directory that cannot tell.
     */
    default PoolRate poolRate(Collection<String> pools, CapacityType capacity) {
        return null;
    }
}
