package io.lifeline.action.port;

import io.lifeline.domain.job.command.CommandAckView;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One way commands reach a job's trainers (the Kafka topic, the agents' long-poll queue, the demo fleet's simulated
 * trainers). The application's {@link TrainerCommandSink} hands every command to each channel that
 * {@linkplain #accepts accepts} it; a channel that fails does not keep the command from the others.
 */
public interface CommandChannel {

    /** A short name for logs and step records ("Kafka topic", "agent queue", ...). */
    String name();

    /** Whether this channel is on and serves the command's job. */
    boolean accepts(TrainerCommand command);

    /**
     * Delivers the command: completes once the channel holds it durably (the Kafka brokers acknowledged the record,
     * the queue committed it), or exceptionally with the reason it did not. Must not block the caller on a slow or
     * unreachable peer. Receivers dedupe by the command's id, so sending it again is harmless.
     */
    CompletionStage<Void> send(TrainerCommand command);

    /** The trainers' answer to a command as this channel recorded it (agents acknowledging through it), if any. */
    default Optional<CommandAckView> acknowledgement(String job, String commandId) {
        return Optional.empty();
    }
}
