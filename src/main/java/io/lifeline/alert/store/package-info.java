/**
 * The alert stores: alert state, the notification outbox and delivery attempts through the transaction helper
 * ({@link io.lifeline.alert.store.AlertStore}), and silences mapped with Hibernate ORM with Panache
 * ({@link io.lifeline.alert.store.SilenceStore}, {@link io.lifeline.alert.store.StoredSilence}).
 */
package io.lifeline.alert.store;
