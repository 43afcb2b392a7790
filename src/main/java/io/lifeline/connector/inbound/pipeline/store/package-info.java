/**
 * The SQL of the inbound pipeline: {@link io.lifeline.connector.inbound.pipeline.store.RegistrationStore}, the node
 * registrations stored in the event log, read at start by the cloud notices' node resolution.
 */
package io.lifeline.connector.inbound.pipeline.store;
