/**
 * Alerting at the edge: {@link io.lifeline.alert.AlertEvaluator} runs the pure engine
 * ({@code io.lifeline.domain.alert}) on snapshots of the model ({@link io.lifeline.alert.AlertSnapshots}) on the
 * replica holding the alerting lock ({@link io.lifeline.eventlog.Leadership}, the replica's one leader election),
 * stores alert state and the notifications each change calls for in one transaction
 * ({@link io.lifeline.alert.store.AlertStore}, V4), pushes to Alertmanager, and {@link io.lifeline.alert.AlertDispatcher}
 * delivers webhook and Slack notifications from that outbox at least once, signed
 * ({@link io.lifeline.alert.WebhookSignature}) and retried with backoff. Receivers:
 * {@link io.lifeline.alert.AlertReceivers}; settings: {@link io.lifeline.alert.AlertsConfig}; silences:
 * {@link io.lifeline.alert.AlertService} over {@link io.lifeline.alert.store.SilenceStore}.
 */
package io.lifeline.alert;
