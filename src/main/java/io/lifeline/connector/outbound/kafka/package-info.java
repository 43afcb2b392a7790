/**
 * Trainer commands sent to the commands topic ({@link io.lifeline.connector.outbound.kafka.KafkaCommandSink}, one
 * {@link io.lifeline.action.port.CommandChannel}). With {@code io.lifeline.ingest.kafka} and
 * {@code connector.inbound.kafka} the only places that use the Kafka client ({@code LayersTest}): the formats and
 * the channels stay free of it.
 */
package io.lifeline.connector.outbound.kafka;
