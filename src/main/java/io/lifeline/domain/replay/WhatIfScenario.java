package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;

/**
 * One combination of settings a what-if replays.
 *
 * @param intervalSeconds        training time between two saves (τ)
 * @param intervalSource         {@code fixed}, {@code current} or {@code advice}
 * @param checkpointCostSeconds  C: blocking time of one save
 * @param recoverySeconds        recovery per interruption, or null for each interruption's own
 * @param noticeLeadSeconds      lead of every notice, or null for each interruption's own
 * @param noticePolicy           whether a notice starts a save and the node is drained when it completes
 * @param capacity               capacity type of the job's pool in this scenario, or null (the job's own)
 */
public record WhatIfScenario(
        double intervalSeconds,
        String intervalSource,
        double checkpointCostSeconds,
        Double recoverySeconds,
        Double noticeLeadSeconds,
        boolean noticePolicy,
        CapacityType capacity) {

    /** A short name: {@code τ=900s C=60s notice=on spot}. */
    public String name() {
        return String.format(
                java.util.Locale.ROOT,
                "interval %.0fs%s, notice policy %s%s",
                intervalSeconds,
                intervalSource.equals("fixed") ? "" : " (" + intervalSource + ")",
                noticePolicy ? "on" : "off",
                capacity == null ? "" : ", " + capacity.wireName());
    }
}
