package io.lifeline.action;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a step produced that later steps of the same action need, kept with the step (column
 * {@code action_step.result}, JSON) so that an action resumed after a restart reads it back typed.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({@JsonSubTypes.Type(value = StepResult.CheckpointRequested.class, name = "checkpoint-requested")})
public sealed interface StepResult {

    /**
     * A checkpoint command was sent.
     *
     * @param baselineStep the step of the job's newest good checkpoint when it was sent: a newer one answers it
     * @param command      the command's wire name ({@code checkpoint_now}, {@code prepare_exit})
     * @param commandId    the command's id, which the trainers echo in their acknowledgement
     */
    record CheckpointRequested(long baselineStep, String command, String commandId) implements StepResult {
    }

    /** JSON for the store. */
    static String toJson(StepResult r) {
        if (r == null) {
            return null;
        }
        try {
            return Json.MAPPER.writerFor(StepResult.class).writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write step result " + r, e);
        }
    }

    /** Read back from the store; null when absent (a step of an earlier version, or one that produced nothing). */
    static StepResult fromJson(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return Json.MAPPER.readValue(json, StepResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable step result: " + json, e);
        }
    }

    /** Holder of the mapper (interfaces cannot have private static fields). */
    final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();

        private Json() {
        }
    }
}
