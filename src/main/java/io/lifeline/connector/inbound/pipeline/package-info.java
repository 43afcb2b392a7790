/**
 * What every inbound connector shares on its way to the ingest gateway: {@link
 * io.lifeline.connector.inbound.pipeline.ConnectorIngest} (the pipeline's checks, then submit; answers a
 * {@link io.lifeline.connector.inbound.pipeline.ConnectorReceipt} like the event API),
 * {@link io.lifeline.connector.inbound.pipeline.ConnectorSink} (a bounded, retrying queue for watched sources),
 * {@link io.lifeline.connector.inbound.pipeline.ConnectorMetrics} (the translators' counters as Prometheus meters),
 * {@link io.lifeline.connector.inbound.pipeline.ConnectorNodeResolver} (machine → node, fed by configuration,
 * Kubernetes and registrations seen through {@link io.lifeline.connector.inbound.pipeline.NodeRegistrationHook}),
 * {@link io.lifeline.connector.inbound.pipeline.ConnectorJobResolver} (torchelastic run → job),
 * {@link io.lifeline.connector.inbound.pipeline.HostNodes} (pod hostname → node) and
 * {@link io.lifeline.connector.inbound.pipeline.NoticeRecords} (cloud notices and torchelastic lines as records of
 * the notices topic).
 *
 * <p>Translation itself lives in the pure translator packages ({@code io.lifeline.connector.inbound.cloud},
 * {@code .torchelastic}, {@code .dcgm}); the HTTP endpoints in {@code io.lifeline.api.connector}. This package only
 * counts, resolves, submits and answers.
 */
package io.lifeline.connector.inbound.pipeline;
