package io.lifeline.api.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.StepResult;
import io.lifeline.domain.action.Impact;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An action on the wire: kinds and states by their wire names ({@code checkpoint-now}, {@code running}). */
public record ActionJson(
        String id,
        String kind,
        String target,
        Map<String, String> params,
        String reason,
        String requestedBy,
        String state,
        Instant createdAt,
        Instant updatedAt,
        Instant deadline,
        Impact impact,
        List<Step> steps,
        String outcome) {

    /**
     * One step on the wire.
     *
     * @param command for a step that sends a trainer command: how its delivery went; absent otherwise
     */
    public record Step(
            int seq,
            String name,
            String state,
            Instant startedAt,
            Instant endedAt,
            String detail,
            @JsonInclude(JsonInclude.Include.NON_NULL) Command command) {}

    /**
     * A trainer command's delivery, as its step recorded it.
     *
     * @param id           the command id the trainers echo
     * @param sentAt       when every channel had taken it (or the trainers acknowledged it); absent while unsent
     * @param attempts     attempts so far
     * @param channels     the channels that took it
     * @param lastError    why the last failed attempt failed; absent when none failed
     * @param acknowledged whether the trainers' acknowledgement ended the retries
     */
    public record Command(
            String id,
            @JsonInclude(JsonInclude.Include.NON_NULL) Instant sentAt,
            int attempts,
            List<String> channels,
            @JsonInclude(JsonInclude.Include.NON_NULL) String lastError,
            boolean acknowledged) {}

    public static ActionJson of(ActionView a) {
        return new ActionJson(
                a.id(),
                a.kind().wire(),
                a.target(),
                a.params(),
                a.reason(),
                a.requestedBy(),
                a.state().wire(),
                a.createdAt(),
                a.updatedAt(),
                a.deadline(),
                a.impact(),
                a.steps().stream().map(ActionJson::step).toList(),
                a.outcome());
    }

    private static Step step(ActionStepView s) {
        return new Step(
                s.seq(), s.name(), s.state().wire(), s.startedAt(), s.endedAt(), s.detail(), command(s.result()));
    }

    private static Command command(StepResult r) {
        StepResult.CommandSent sent = r instanceof StepResult.CheckpointRequested c
                ? c.sent()
                : r instanceof StepResult.CommandSent s ? s : null;
        if (sent != null) {
            return new Command(
                    sent.commandId(),
                    sent.sentAt(),
                    sent.attempts(),
                    sent.channels(),
                    sent.lastError(),
                    sent.acknowledged());
        }
        if (r instanceof StepResult.CommandPending p) {
            return new Command(p.commandId(), null, p.attempts(), p.confirmed(), p.lastError(), false);
        }
        return null;
    }
}
