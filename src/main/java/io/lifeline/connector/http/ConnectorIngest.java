package io.lifeline.connector.http;

import io.lifeline.domain.event.Event;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.ingest.IngestReceipt;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How pushed connector inputs reach the pipeline: every event made of the input passes the pipeline's own checks
 * (the future-skew guard), the good ones are submitted together, and the answer lists every dropped item with its
 * reason, as the event API does.
 */
@ApplicationScoped
public class ConnectorIngest {

    private final IngestPipeline pipeline;
    private final ConnectorMetrics metrics;

    ConnectorIngest(IngestPipeline pipeline, ConnectorMetrics metrics) {
        this.pipeline = pipeline;
        this.metrics = metrics;
    }

    /** The events of a batch that pass the pipeline's checks, in order; adds an error for each one that does not. */
    public List<Event> admissible(ConnectorBatch batch) {
        List<Event> valid = new ArrayList<>(batch.events().size());
        for (int i = 0; i < batch.events().size(); i++) {
            Event e = batch.events().get(i);
            String reason = pipeline.check(e);
            if (reason == null) {
                valid.add(e);
                batch.markUsable(batch.positions().get(i));
            } else {
                metrics.rejectedAtIngest(batch.connector(), ConnectorMetrics.TIME_IN_FUTURE);
                batch.errors().add(new ItemError(batch.positions().get(i), e.id(), ConnectorMetrics.TIME_IN_FUTURE, reason));
            }
        }
        batch.errors().sort(Comparator.comparingInt(ItemError::index));
        return valid;
    }

    /**
     * Checks and submits a batch. Completes with the receipt once every lifecycle event is stored; completes with
     * {@code null} when nothing was submittable (see {@link #errorsOf}); fails like {@link IngestPipeline#submit}.
     */
    public CompletionStage<ConnectorReceipt> submit(ConnectorBatch batch) {
        List<Event> valid = admissible(batch);
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(batch.errors().isEmpty()
                    ? new ConnectorReceipt(0, 0, 0, List.of()) : null);
        }
        return submitChecked(valid).thenApply(r -> new ConnectorReceipt(r.accepted(), r.duplicates(),
                batch.errors().size(), batch.errors()));
    }

    /** Submits events already checked by {@link #admissible}. */
    public CompletionStage<IngestReceipt> submitChecked(List<Event> events) {
        return pipeline.submit(events);
    }

    /** The errors of a batch, once {@link #submit} found nothing to submit. */
    public static List<ItemError> errorsOf(ConnectorBatch batch) {
        return List.copyOf(batch.errors());
    }
}
