/**
 * Where alerts go and how a delivery went: {@link io.lifeline.alert.receiver.Receiver} and its
 * {@link io.lifeline.alert.receiver.ReceiverKind}, and {@link io.lifeline.alert.receiver.DeliveryOutcome}. Below both
 * the alert services and their store, which records notifications and attempts by receiver.
 */
package io.lifeline.alert.receiver;
