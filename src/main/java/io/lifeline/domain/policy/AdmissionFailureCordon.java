package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.fleet.AdmissionSuspect;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeDetail;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Cordons a node that swallows pods: Ready, yet its kubelet rejected at least the threshold of pods at admission or
 * device allocation within the window (one lost GPU can fail the allocation of every GPU pod while the node stays
 * Ready and advertises all its GPUs). Decided when a rejection is applied, by the rejections' own times, so a replay
 * decides the same. The cordon's reason carries the evidence: the count, the first and last times and the pods.
 * One decision per node and cordon state: a node a person uncordons is cordoned again only by new rejections.
 */
final class AdmissionFailureCordon {

    /** The planner's limit on an action's reason. */
    private static final int MAX_REASON = 1_000;

    private AdmissionFailureCordon() {}

    static List<PolicyDecision> decisions(PolicySettings policies, Fleet fleet, String node, Instant at) {
        AdmissionSuspect s = fleet.admissionFailures(node, at).orElse(null);
        if (s == null || !s.suspect()) {
            return List.of();
        }
        NodeDetail d = fleet.node(node).orElse(null);
        if (d == null || d.cordoned() || d.terminated()) {
            return List.of();
        }
        // A node runs no namespace's work of its own: only its pool's override and the default apply.
        PolicyMode mode = policies.modeFor(PolicyName.ADMISSION_FAILURE_CORDON, null, s.pool());
        if (mode == PolicyMode.OFF) {
            return List.of();
        }
        String reason = "node swallows pods: " + s.evidence();
        if (reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON - 1) + "…";
        }
        return List.of(new PolicyDecision(
                PolicyName.ADMISSION_FAILURE_CORDON,
                mode,
                new ActionRequest(ActionKind.CORDON, node, Map.of(), reason),
                "admission:" + node + ":"
                        + (d.cordonSince() == null ? "never" : d.cordonSince().toString())));
    }
}
