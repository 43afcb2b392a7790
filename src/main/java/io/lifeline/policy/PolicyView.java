package io.lifeline.policy;

import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import java.util.Map;

/**
 * A policy's settings as the API shows them.
 *
 * @param mode      the default mode
 * @param overrides mode per scope: {@code namespace:<ns>} or {@code pool:<pool>}; the most specific wins
 *                  (namespace before pool before the default)
 * @param onlyWhenBurning for {@code stale-checkpoint}, whether it acts only on jobs whose goodput objective burns its
 *                  budget ({@code lifeline.policies.stale-checkpoint.only-when-burning}); null for the other policies
 */
public record PolicyView(
        PolicyName name,
        String description,
        PolicyMode mode,
        Map<String, PolicyMode> overrides,
        Boolean onlyWhenBurning) {

    public PolicyView {
        overrides = Map.copyOf(overrides);
    }
}
