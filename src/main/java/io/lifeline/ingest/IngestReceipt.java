package io.lifeline.ingest;

/**
 * What became of a submitted batch.
 *
 * @param accepted    events new to Lifeline, stored (lifecycle) and applied
 * @param duplicates  events already seen (same source and id), accepted and ignored
 */
public record IngestReceipt(int accepted, int duplicates) {
}
