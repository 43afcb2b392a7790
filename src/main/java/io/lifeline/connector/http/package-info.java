/**
 * The runtime of the inbound connectors and the formats pushed to Lifeline.
 *
 * <p><b>Pushed formats</b>: cloud interruption notices ({@link io.lifeline.connector.http.CloudNoticesResource}:
 * AWS EventBridge and instance metadata, Azure Scheduled Events, GCE metadata values) and torchelastic event lines
 * ({@link io.lifeline.connector.http.TorchelasticResource}) over HTTP, and the same over the Kafka notices topic
 * ({@link io.lifeline.connector.kafka.NoticesKafkaConsumer}, {@link io.lifeline.connector.http.NoticeRecords}).
 * Each answers like the event API ({@link io.lifeline.connector.http.ConnectorReceipt}, or a 400 problem listing
 * every {@link io.lifeline.codec.Refusal} when nothing usable came out).
 *
 * <p><b>Shared by every connector</b>: {@link io.lifeline.connector.http.ConnectorIngest} (the pipeline's checks,
 * then submit), {@link io.lifeline.connector.http.ConnectorSink} (a bounded, retrying queue for watched sources),
 * {@link io.lifeline.connector.http.ConnectorMetrics} (the translators' counters as Prometheus meters),
 * {@link io.lifeline.connector.http.ConnectorNodeResolver} (machine → node, fed by configuration, Kubernetes and
 * registrations seen through {@link io.lifeline.connector.http.NodeRegistrationHook}),
 * {@link io.lifeline.connector.http.ConnectorJobResolver} (torchelastic run → job) and
 * {@link io.lifeline.connector.http.HostNodes} (pod hostname → node).
 *
 * <p>Translation itself lives in the pure translator packages ({@code io.lifeline.connector.cloud},
 * {@code .torchelastic}, {@code .dcgm}); this package only receives, counts, submits and answers.
 */
package io.lifeline.connector.http;
