package io.lifeline.ingest;

import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.ConsumedOffsets;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The one way events enter Lifeline, whatever their transport (HTTP, Kafka, connectors, the demo simulator).
 * Events are deduplicated by (source, id), lifecycle events are stored in batches, and all are applied to the
 * model by its single writer.
 */
public interface IngestGateway {

    /**
     * Submits decoded events. Checks what a decoder cannot know (an event dated too far in the future) and refuses
     * those events, each named in the receipt with its index and reason; the rest of the batch is kept. An event the
     * event store refuses on its content is named in the receipt the same way (the reason is the database's), never
     * retried. The returned
     * stage completes once every lifecycle event kept is durably stored and every event kept is queued for the
     * model, or fails with {@link RetryLaterException} when Lifeline cannot take more right now (back-pressure). The
     * receipt's {@link IngestReceipt#applied()} completes once the model has applied them, naming those it did not
     * apply and why: a sender that waits for an answer waits for it too.
     */
    default CompletionStage<IngestReceipt> submit(List<Event> events) {
        return submit(events, null);
    }

    /**
     * Submits events consumed from Kafka up to {@code offsets} (null for other transports): the offsets are stored in
     * the same transaction as the events, so the next reader of those partitions resumes exactly after them.
     */
    CompletionStage<IngestReceipt> submit(List<Event> events, ConsumedOffsets offsets);
}
