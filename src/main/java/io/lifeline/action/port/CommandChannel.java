package io.lifeline.action.port;

/**
 * One way commands reach a job's trainers (the Kafka topic, the agents' long-poll queue, the demo fleet's simulated
 * trainers). The application's {@link TrainerCommandSink} hands every command to each channel that
 * {@linkplain #accepts accepts} it; a channel that fails does not keep the command from the others.
 */
public interface CommandChannel {

    /** A short name for logs ("Kafka", "agent queue", ...). */
    String name();

    /** Whether this channel is on and serves the command's job. */
    boolean accepts(TrainerCommand command);

    /** Delivers the command; receivers dedupe by its id, so sending it again is harmless. */
    void send(TrainerCommand command);
}
