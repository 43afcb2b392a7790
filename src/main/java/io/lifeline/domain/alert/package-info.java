/**
 * Alerting: built-in rules over a snapshot of the model ({@link io.lifeline.domain.alert.AlertSnapshot}), alert
 * state with {@code for} durations ({@link io.lifeline.domain.alert.AlertState}), identity by fingerprint, silences,
 * and grouping by (rule, namespace) for delivery. Pure: the caller passes the snapshot and "now"; delivery and
 * storage are done at the edge ({@code io.lifeline.alert}).
 */
package io.lifeline.domain.alert;
