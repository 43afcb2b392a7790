package io.lifeline.domain.replay;

import io.lifeline.domain.event.CapacityType;
import java.util.List;

/**
 * The settings a what-if tries; every combination of the lists is one scenario.
 *
 * @param intervalsSeconds       checkpoint intervals to try (training time between two saves); empty: the job's
 *                               current interval (when known)
 * @param advice                 whether to try the advised interval too
 * @param checkpointCostSeconds  C to assume, or null for the job's measured one (else the configured default)
 * @param recoverySeconds        recovery per interruption to assume, or null for each interruption's own
 * @param noticeLeadSeconds      lead of every notice to assume, or null for each interruption's own
 * @param noticePolicy           notice policy settings to try (on: a save begins at the notice and the node is
 *                               drained when it completes); empty: on
 * @param capacity               capacity types to try for the job's pool; empty: the job's own
 */
public record WhatIfRequest(
        List<Double> intervalsSeconds,
        boolean advice,
        Double checkpointCostSeconds,
        Double recoverySeconds,
        Double noticeLeadSeconds,
        List<Boolean> noticePolicy,
        List<CapacityType> capacity) {

    public WhatIfRequest {
        intervalsSeconds = intervalsSeconds == null ? List.of() : List.copyOf(intervalsSeconds);
        noticePolicy = noticePolicy == null ? List.of() : List.copyOf(noticePolicy);
        capacity = capacity == null ? List.of() : List.copyOf(capacity);
    }
}
