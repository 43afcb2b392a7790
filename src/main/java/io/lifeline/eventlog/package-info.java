/**
 * The event log on PostgreSQL and what is kept beside it: the log itself (daily partitions, group-commit writes in
 * commit order, durable dedupe; {@link io.lifeline.eventlog.EventLogWriter}, read back in seq order by
 * {@link io.lifeline.eventlog.EventLogTail}), the Kafka offsets stored with each batch
 * ({@link io.lifeline.eventlog.OffsetStore}), the one leader election ({@link io.lifeline.eventlog.Leadership}) with
 * its fence, the model's checkpoints ({@link io.lifeline.eventlog.ModelCheckpointStore}) and the job history and
 * timeline written off the model thread. Named for what it holds: the other stores (actions, alerts, policies,
 * tokens) live with their services.
 */
package io.lifeline.eventlog;
