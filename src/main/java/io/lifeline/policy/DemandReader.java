package io.lifeline.policy;

import io.lifeline.domain.policy.colocation.DemandTrigger;

/**
 * Reads the value of a co-location demand trigger's source (Prometheus, the cluster's pending pods). Implemented
 * by the connectors; the policy only sees this port, so a trigger is tested with any reader.
 */
public interface DemandReader {

    /** Whether this reader can read {@code source} (its kind, and its connection configured). */
    boolean serves(DemandTrigger.Source source);

    /**
     * The current value.
     *
     * @throws Exception when it cannot be read now (the trigger then keeps its state and shows why)
     */
    double read(DemandTrigger.Source source) throws Exception;
}
