package io.lifeline.action.port;

/**
 * Delivers trainer commands: to the Kafka topic {@code lifeline.commands} (keyed by job) when Kafka is configured,
 * to agents polling {@code GET /api/v1/agents/{job}/commands}, and to the demo simulator's trainers. Sending the
 * same command id twice must be harmless (receivers dedupe by id).
 */
public interface TrainerCommandSink {

    void send(TrainerCommand command);
}
