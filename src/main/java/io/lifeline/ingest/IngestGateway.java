package io.lifeline.ingest;

import io.lifeline.domain.event.Event;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The one way events enter Lifeline, whatever their transport (HTTP, Kafka, connectors, the demo simulator).
 * Events are deduplicated by (source, id), lifecycle events are stored in batches, and all are applied to the
 * model by its single writer.
 */
public interface IngestGateway {

    /**
     * Submits already-validated events. The returned stage completes once every lifecycle event of the
     * batch is durably stored and every event is queued for the model, or fails with
     * {@link IngestRejectedException} when Lifeline cannot take more right now (back-pressure).
     */
    CompletionStage<IngestReceipt> submit(List<Event> events);
}
