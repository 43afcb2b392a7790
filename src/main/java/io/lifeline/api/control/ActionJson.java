package io.lifeline.api.control;

import io.lifeline.action.ActionStepView;
import io.lifeline.action.ActionView;
import io.lifeline.domain.action.Impact;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An action on the wire: kinds and states by their wire names ({@code checkpoint-now}, {@code running}). */
public record ActionJson(String id, String kind, String target, Map<String, String> params, String reason,
                         String requestedBy, String state, Instant createdAt, Instant updatedAt, Instant deadline,
                         Impact impact, List<Step> steps, String outcome) {

    /** One step on the wire. */
    public record Step(int seq, String name, String state, Instant startedAt, Instant endedAt, String detail) {
    }

    public static ActionJson of(ActionView a) {
        return new ActionJson(a.id(), a.kind().wire(), a.target(), a.params(), a.reason(), a.requestedBy(),
                a.state().wire(), a.createdAt(), a.updatedAt(), a.deadline(), a.impact(),
                a.steps().stream().map(ActionJson::step).toList(), a.outcome());
    }

    private static Step step(ActionStepView s) {
        return new Step(s.seq(), s.name(), s.state().wire(), s.startedAt(), s.endedAt(), s.detail());
    }
}
