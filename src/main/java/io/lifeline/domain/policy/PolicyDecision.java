package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionRequest;

/**
 * A policy wants an action. The idempotency key makes a decision taken twice (a notice seen by two sources, a
 * periodic check that finds the same stale checkpoint again) one action.
 *
 * @param skipped   why the action must wait (its target cannot obey yet, or the policy backs off), or null: a skipped
 *                  decision is recorded, like a dry run, and nothing is done
 * @param brakeNode the node the decision takes out of the job's service when it is not the request's own target (a
 *                  recovery rung's replacement of a node's pods, or its shrink without a lost node), counted by the
 *                  automation brake like a drain of it; null otherwise
 */
public record PolicyDecision(
        PolicyName policy,
        PolicyMode mode,
        ActionRequest request,
        String idempotencyKey,
        String skipped,
        String brakeNode) {

    public PolicyDecision(PolicyName policy, PolicyMode mode, ActionRequest request, String idempotencyKey) {
        this(policy, mode, request, idempotencyKey, null, null);
    }

    public PolicyDecision(
            PolicyName policy, PolicyMode mode, ActionRequest request, String idempotencyKey, String skipped) {
        this(policy, mode, request, idempotencyKey, skipped, null);
    }

    /**
     * This decision skipped for {@code reason}. Its key gains {@code code} (short and stable: the same reason met again
     * is the same record), so that the action itself, once its target can obey, still gets the original key.
     */
    public PolicyDecision skip(String reason, String code) {
        return new PolicyDecision(policy, mode, request, idempotencyKey + "|skipped:" + code, reason, brakeNode);
    }

    /** This decision, counted by the automation brake as taking {@code node}. */
    public PolicyDecision takingNode(String node) {
        return new PolicyDecision(policy, mode, request, idempotencyKey, skipped, node);
    }

    public boolean isSkipped() {
        return skipped != null;
    }

    /** The node the automation brake counts this decision against, or null when it takes none. */
    public String nodeTaken() {
        if (brakeNode != null) {
            return brakeNode;
        }
        return AutomationBrake.takesNode(request) ? request.target() : null;
    }
}
