package io.lifeline.domain.action;

/**
 * The planner's answer: a plan, or a refusal naming the field at fault and why.
 *
 * @param plan   the plan, null when refused
 * @param field  the field at fault ({@code target}, {@code params.workers}...), null when accepted
 * @param reason why it was refused, null when accepted
 */
public record PlanResult(Plan plan, String field, String reason) {

    public static PlanResult accepted(Plan plan) {
        return new PlanResult(plan, null, null);
    }

    public static PlanResult refused(String field, String reason) {
        return new PlanResult(null, field, reason);
    }

    public boolean ok() {
        return plan != null;
    }
}
