/**
 * Cloud notices and torchelastic lines read from the notices topic
 * ({@link io.lifeline.connector.inbound.kafka.NoticesKafkaConsumer}, on the shared
 * {@link io.lifeline.ingest.kafka.DurableConsumerLoop}, translated by
 * {@link io.lifeline.connector.inbound.pipeline.NoticeRecords}). With {@code io.lifeline.ingest.kafka} and
 * {@code connector.outbound.kafka} the only places that use the Kafka client ({@code LayersTest}).
 */
package io.lifeline.connector.inbound.kafka;
