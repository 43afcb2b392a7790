package io.lifeline.domain.fleet.reliability;

import java.util.List;

/**
 * The observed interruption rate of some pools' nodes: what the checkpoint-interval advice takes its per-node MTBI
 * from, and what a replay of other settings reads a pool's rate from.
 *
 * @param pools          pool names
 * @param nodeSeconds    node-seconds in service within the window
 * @param interruptions  interruptions within the window
 * @param windowDays     the window's whole UTC days
 */
public record PoolRate(List<String> pools, double nodeSeconds, long interruptions, int windowDays) {

    public PoolRate {
        pools = List.copyOf(pools);
    }

    /** Mean node-seconds between interruptions, null without one. */
    public Double mtbfSeconds() {
        return interruptions == 0 ? null : nodeSeconds / interruptions;
    }
}
