package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionRequest;

/**
 * A policy wants an action. The idempotency key makes a decision taken twice (a notice seen by two sources, a
 * periodic check that finds the same stale checkpoint again) one action.
 */
public record PolicyDecision(PolicyName policy, PolicyMode mode, ActionRequest request, String idempotencyKey) {
}
