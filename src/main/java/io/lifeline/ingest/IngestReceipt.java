package io.lifeline.ingest;

import java.util.List;

/**
 * What became of a submitted batch.
 *
 * @param accepted    events new to Lifeline, stored (lifecycle) and applied
 * @param duplicates  events already seen (same source and id), accepted and ignored
 * @param rejected    events the gateway refused (neither stored nor applied), by their index in the submitted list
 */
public record IngestReceipt(int accepted, int duplicates, List<Refused> rejected) {

    public IngestReceipt {
        rejected = List.copyOf(rejected);
    }

    /** A batch of which nothing was refused. */
    public IngestReceipt(int accepted, int duplicates) {
        this(accepted, duplicates, List.of());
    }

    /**
     * One refused event.
     *
     * @param index  its position in the submitted list
     * @param id     its id
     * @param reason why, naming the field
     */
    public record Refused(int index, String id, String reason) {
    }
}
