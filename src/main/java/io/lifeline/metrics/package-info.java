/**
 * Prometheus metrics: model-derived gauges and counters published from a periodic snapshot of the model
 * ({@link io.lifeline.metrics.ModelMetrics}), ingest counters by source family and type
 * ({@link io.lifeline.metrics.IngestMetrics}), Kafka consumer lag, and the counters the action executor and
 * policies report to ({@link io.lifeline.metrics.ActionMetrics}). Every name and label is listed in
 * {@code docs/operations.md}.
 */
package io.lifeline.metrics;
