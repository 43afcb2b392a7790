package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionRequest;

/**
 * A policy wants an action. The idempotency key makes a decision taken twice (a notice seen by two sources, a
 * periodic check that finds the same stale checkpoint again) one action.
 *
 * @param skipped why the action must wait (its target cannot obey yet, or the policy backs off), or null: a skipped
 *                decision is recorded, like a dry run, and nothing is done
 */
public record PolicyDecision(
        PolicyName policy, PolicyMode mode, ActionRequest request, String idempotencyKey, String skipped) {

    public PolicyDecision(PolicyName policy, PolicyMode mode, ActionRequest request, String idempotencyKey) {
        this(policy, mode, request, idempotencyKey, null);
    }

    /**
     * This decision skipped for {@code reason}. Its key gains {@code code} (short and stable: the same reason met again
     * is the same record), so that the action itself, once its target can obey, still gets the original key.
     */
    public PolicyDecision skip(String reason, String code) {
        return new PolicyDecision(policy, mode, request, idempotencyKey + "|skipped:" + code, reason);
    }

    public boolean isSkipped() {
        return skipped != null;
    }
}
