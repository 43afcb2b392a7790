package io.lifeline.action.port;

import io.lifeline.domain.job.command.CommandAckView;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Delivers trainer commands: to the Kafka topic {@code lifeline.commands} (keyed by job) when Kafka is configured,
 * to agents polling {@code GET /api/v1/agents/{job}/commands}, and to the demo simulator's trainers. Sending the
 * same command id twice must be harmless (receivers dedupe by id): a send that failed is sent again.
 */
public interface TrainerCommandSink {

    /**
     * One attempt to deliver the command: hands it to every channel that accepts it except those in
     * {@code confirmed} (they took it in an earlier attempt), and completes, never exceptionally, once each has
     * answered. Does not block the caller on a slow or unreachable channel.
     */
    CompletionStage<SendAttempt> send(TrainerCommand command, Set<String> confirmed);

    /** The trainers' answer to the command as a channel recorded it, whichever replica it came through; if any. */
    default Optional<CommandAckView> acknowledgement(String job, String commandId) {
        return Optional.empty();
    }
}
