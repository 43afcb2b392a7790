/**
 * torchelastic's own event JSON (agent/worker status events and rendezvous events) into trainer events:
 * {@link io.lifeline.connector.torchelastic.TorchelasticTranslator}, with a
 * {@link io.lifeline.connector.torchelastic.JobResolver} from run id to job.
 */
package io.lifeline.connector.torchelastic;
