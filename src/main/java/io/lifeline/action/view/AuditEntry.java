package io.lifeline.action.view;

import java.time.Instant;

/**
 * One audited thing: an action requested, a step done, a policy changed.
 *
 * @param what    for example {@code action.requested}, {@code action.step}, {@code action.finished}, {@code policy.updated}
 * @param before  state before, as short text (may be null)
 * @param after   state after, as short text (may be null)
 */
public record AuditEntry(
        long seq,
        Instant time,
        String actor,
        String what,
        String target,
        String actionId,
        String reason,
        String before,
        String after) {}
