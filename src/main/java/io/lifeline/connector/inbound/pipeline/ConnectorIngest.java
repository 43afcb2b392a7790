package io.lifeline.connector.inbound.pipeline;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.ConsumedOffsets;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.ingest.NotAppliedLog;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How connector inputs reach the gateway: the events made of an input are submitted together; the gateway refuses
 * those it cannot take (the future-skew guard) and the answer lists every dropped item with its reason, as the event
 * API does, and every event the model did not apply. Refusals are counted per connector.
 */
@ApplicationScoped
public class ConnectorIngest {

    private final IngestGateway gateway;
    private final ConnectorMetrics metrics;

    ConnectorIngest(IngestGateway gateway, ConnectorMetrics metrics) {
        this.gateway = gateway;
        this.metrics = metrics;
    }

    /**
     * Submits a batch whose sender waits for the answer (an HTTP request). Completes with the receipt once every
     * lifecycle event kept is stored and every event kept is applied to the model, marking each item that gave a kept
     * event usable; completes with {@code null} when nothing was submittable (see {@link #errorsOf}); fails like
     * {@link IngestGateway#submit}.
     */
    public CompletionStage<ConnectorReceipt> submit(ConnectorBatch batch) {
        return submit(batch, null, true);
    }

    /**
     * {@link #submit(ConnectorBatch)} of a batch consumed from Kafka up to {@code offsets}, stored with its events.
     * Completes once they are stored: the consumer does not wait for the model, and what it did not apply is logged.
     */
    public CompletionStage<ConnectorReceipt> submit(ConnectorBatch batch, ConsumedOffsets offsets) {
        return submit(batch, offsets, false);
    }

    private CompletionStage<ConnectorReceipt> submit(
            ConnectorBatch batch, ConsumedOffsets offsets, boolean waitForModel) {
        if (batch.events().isEmpty()) {
            batch.errors().sort(Comparator.comparingInt(Refusal::index));
            ConnectorReceipt nothing =
                    batch.errors().isEmpty() ? new ConnectorReceipt(0, 0, 0, 0, List.of(), List.of()) : null;
            return offsets == null
                    ? CompletableFuture.completedFuture(nothing)
                    : gateway.submit(List.of(), offsets).thenApply(r -> nothing);
        }
        List<Event> events = List.copyOf(batch.events());
        return gateway.submit(events, offsets).thenCompose(r -> {
            BitSet refused = new BitSet();
            for (Refusal x : r.rejected()) {
                refused.set(x.index());
                metrics.rejectedAtIngest(batch.connector(), ConnectorMetrics.TIME_IN_FUTURE);
                batch.errors()
                        .add(new Refusal(
                                batch.positions().get(x.index()), x.id(), ConnectorMetrics.TIME_IN_FUTURE, x.reason()));
            }
            for (int i = 0; i < events.size(); i++) {
                if (!refused.get(i)) {
                    batch.markUsable(batch.positions().get(i));
                }
            }
            batch.errors().sort(Comparator.comparingInt(Refusal::index));
            if (r.accepted() + r.duplicates() == 0) {
                return CompletableFuture.completedFuture(null);
            }
            List<Refusal> errors = List.copyOf(batch.errors());
            if (!waitForModel) {
                r.applied()
                        .thenAccept(a -> NotAppliedLog.record(
                                batch.connector(),
                                events,
                                a,
                                i -> "item " + batch.positions().get(i)));
                return CompletableFuture.completedFuture(new ConnectorReceipt(
                        r.accepted(), r.accepted(), r.duplicates(), errors.size(), errors, List.of()));
            }
            return r.applied().thenApply(a -> {
                List<Refusal> notApplied = new ArrayList<>(a.notApplied().size());
                for (Refusal n : a.notApplied()) {
                    notApplied.add(n.at(batch.positions().get(n.index())));
                }
                return new ConnectorReceipt(
                        r.accepted(), a.applied(), r.duplicates(), errors.size(), errors, notApplied);
            });
        });
    }

    /**
     * Submits events a connector made by itself (no input to answer); refusals are counted for {@code connector}, and
     * what the model did not apply is logged once it is applied.
     */
    public CompletionStage<IngestReceipt> submit(String connector, List<Event> events) {
        return gateway.submit(events).thenApply(r -> {
            if (!r.rejected().isEmpty()) {
                for (int i = 0; i < r.rejected().size(); i++) {
                    metrics.rejectedAtIngest(connector, ConnectorMetrics.TIME_IN_FUTURE);
                }
            }
            r.applied().thenAccept(a -> NotAppliedLog.record(connector, events, a, null));
            return r;
        });
    }

    /** The errors of a batch, once {@link #submit} found nothing to submit. */
    public static List<Refusal> errorsOf(ConnectorBatch batch) {
        return List.copyOf(batch.errors());
    }
}
