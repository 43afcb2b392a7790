/**
 * The connectors' Kafka traffic: cloud notices and torchelastic lines read from the notices topic
 * ({@link io.lifeline.connector.kafka.NoticesKafkaConsumer}, on the shared
 * {@link io.lifeline.ingest.kafka.DurableConsumerLoop}, translated by {@link io.lifeline.connector.http.NoticeRecords})
 * and trainer commands sent to the commands topic ({@link io.lifeline.connector.kafka.KafkaCommandSink}, one
 * {@link io.lifeline.action.port.CommandChannel}). With {@code io.lifeline.ingest.kafka} the only place that uses the
 * Kafka client ({@code LayersTest}): the formats and the channels stay free of it.
 */
package io.lifeline.connector.kafka;
