package io.lifeline.action.view;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.List;

/**
 * What a step produced that later steps of the same action need, kept with the step (column
 * {@code action_step.result}, JSON) so that an action resumed after a restart reads it back typed.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = StepResult.CheckpointRequested.class, name = "checkpoint-requested"),
    @JsonSubTypes.Type(value = StepResult.CommandSent.class, name = "command-sent"),
    @JsonSubTypes.Type(value = StepResult.CommandPending.class, name = "command-pending"),
    @JsonSubTypes.Type(value = StepResult.Rescaled.class, name = "rescaled"),
    @JsonSubTypes.Type(value = StepResult.CheckpointChecked.class, name = "checkpoint-checked")
})
public sealed interface StepResult {

    /**
     * A checkpoint command was sent.
     *
     * @param baselineStep the step of the job's newest good checkpoint when it was sent: a newer one answers it
     * @param command      the command's wire name ({@code checkpoint_now}, {@code prepare_exit})
     * @param commandId    the command's id, which the trainers echo in their acknowledgement
     * @param sent         how it was delivered (null in steps of earlier versions)
     */
    record CheckpointRequested(long baselineStep, String command, String commandId, CommandSent sent)
            implements StepResult {

        public CheckpointRequested(long baselineStep, String command, String commandId) {
            this(baselineStep, command, commandId, null);
        }
    }

    /**
     * A command was delivered: every channel that serves its job took it, or the trainers acknowledged it first.
     *
     * @param commandId    the command's id
     * @param command      its wire name
     * @param sentAt       when the last channel confirmed it (or the acknowledgement was seen)
     * @param attempts     attempts it took (1 when the first one went through)
     * @param channels     the channels that took it
     * @param lastError    why the attempt before the last failed; null when none failed
     * @param acknowledged whether the trainers' acknowledgement ended the retries before every channel took it
     */
    record CommandSent(
            String commandId,
            String command,
            Instant sentAt,
            int attempts,
            List<String> channels,
            String lastError,
            boolean acknowledged)
            implements StepResult {}

    /**
     * A command not delivered yet, on its running step between attempts: an action resumed after a restart counts
     * on from here.
     *
     * @param commandId the command's id
     * @param attempts  attempts so far, all failed
     * @param lastError why the last one failed
     * @param lastAt    when it failed
     * @param confirmed channels that took it nonetheless
     */
    record CommandPending(String commandId, int attempts, String lastError, Instant lastAt, List<String> confirmed)
            implements StepResult {}

    /**
     * A job's workers were scaled: what the change cost, for the co-location ledger.
     *
     * @param pool           the job's pool
     * @param fromNodes      nodes before
     * @param toNodes        nodes asked for
     * @param gpusPerNode    GPUs per node of the job
     * @param reworkGpuHours work since the newest checkpoint that the restart throws away (0 when no step was trained
     *                       since it)
     * @param checkpointed   whether a checkpoint was saved first
     * @param checkpointId   the newest good checkpoint when scaled, or null
     */
    record Rescaled(
            String pool,
            int fromNodes,
            int toNodes,
            int gpusPerNode,
            double reworkGpuHours,
            boolean checkpointed,
            String checkpointId)
            implements StepResult {}

    /**
     * The checkpoint a restore starts from was found good: what the restore's later steps send and wait for.
     *
     * @param checkpointId the checkpoint
     * @param restoreCount how many times runs had restored from it when checked: one more answers the restore
     * @param uri          where it is stored, sent to the trainers and annotated on the job; empty when unknown
     */
    record CheckpointChecked(String checkpointId, int restoreCount, String uri) implements StepResult {}

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
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .build();

        private Json() {}
    }
}
