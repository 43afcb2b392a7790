package io.lifeline.runtime;

/**
 * Fired once the model has been rebuilt from the stored log and ingest is open; sources (Kafka, the demo,
 * connectors) and the components that react to applied events start on it.
 */
public record IngestOpened() {}
