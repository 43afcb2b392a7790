package io.lifeline.domain.fleet.reliability;

import java.util.List;

/**
 * A node interrupted far more often than its pool: under the pool's rate (the rest of the pool's nodes), at least as
 * many interruptions over its exposure had probability {@code tailProbability}.
 *
 * @param node             node name
 * @param pool             its pool
 * @param nodeHours        its node-hours in service within the window
 * @param interruptions    its interruptions within the window
 * @param poolRate         the rest of its pool's interruptions per node-hour (the upper confidence bound when the rest
 *                         had none)
 * @param expected         interruptions the pool's rate predicts over its exposure
 * @param tailProbability  P(X ≥ interruptions) for X ~ Poisson(expected)
 * @param evidence         the interruptions themselves, oldest first
 */
public record LemonNode(
        String node,
        String pool,
        double nodeHours,
        long interruptions,
        double poolRate,
        double expected,
        double tailProbability,
        List<Interruption> evidence) {

    public LemonNode {
        evidence = List.copyOf(evidence);
    }
}
