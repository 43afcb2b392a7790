/**
 * torchelastic's own event JSON (agent/worker status events and rendezvous events) into trainer events:
 * {@link io.lifeline.connector.inbound.torchelastic.TorchelasticTranslator}, with a
 * {@link io.lifeline.connector.inbound.torchelastic.JobResolver} from run id to job.
 */
package io.lifeline.connector.inbound.torchelastic;
