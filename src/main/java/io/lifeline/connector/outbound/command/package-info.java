/**
 * Trainer commands out: {@link io.lifeline.connector.outbound.command.TrainerCommands} (the one
 * {@link io.lifeline.action.port.TrainerCommandSink}) sends each command as a CloudEvent to the Kafka topic
 * ({@link io.lifeline.connector.outbound.kafka.KafkaCommandSink}), to agents polling over HTTP
 * ({@link io.lifeline.connector.outbound.command.AgentCommandQueue}, {@link io.lifeline.api.connector.AgentCommandsResource})
 * and to any other {@link io.lifeline.action.port.CommandChannel} (the demo fleet's trainers plug in as one).
 */
package io.lifeline.connector.outbound.command;
