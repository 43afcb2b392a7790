package io.lifeline.api.connector;

import io.lifeline.codec.Refusal;
import io.lifeline.connector.inbound.pipeline.ConnectorBatch;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.domain.event.Event;
import io.lifeline.ingest.TrainerPlacement;
import io.lifeline.security.IngestScope;
import io.lifeline.security.identity.Caller;
import io.lifeline.web.ProblemMappers;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** How connector endpoints answer: 200 with the receipt, or a 400 problem when nothing usable came out of the input. */
public final class Answers {

    private Answers() {}

    /** Submits the batch and answers like the event API. */
    public static CompletionStage<Response> submit(ConnectorIngest ingest, ConnectorBatch batch) {
        return ingest.submit(batch)
                .thenApply(receipt ->
                        receipt != null ? Response.ok(receipt).build() : unusable(ConnectorIngest.errorsOf(batch)));
    }

    /**
     * Submits what {@code caller} may send and answers like the event API: events outside a namespace-limited
     * caller's scope are refused one by one ({@code out_of_scope}); when that leaves nothing, and nothing else was
     * wrong, the answer is 403.
     */
    public static CompletionStage<Response> submit(ConnectorIngest ingest, ConnectorBatch batch, Caller caller) {
        return submit(ingest, batch, caller, e -> null);
    }

    /**
     * Like {@link #submit(ConnectorIngest, ConnectorBatch, Caller)}, also refusing what {@code also} names a reason
     * for (a job placed on nodes the caller may not speak for: {@link TrainerPlacement}).
     */
    public static CompletionStage<Response> submit(
            ConnectorIngest ingest, ConnectorBatch batch, Caller caller, Function<Event, String> also) {
        int refused = batch.withhold(
                e -> {
                    String why = IngestScope.refusal(caller, e);
                    return why != null ? why : also.apply(e);
                },
                IngestScope.OUT_OF_SCOPE);
        if (refused > 0 && batch.events().isEmpty() && refused == batch.errors().size()) {
            List<Refusal> errors = ConnectorIngest.errorsOf(batch).stream()
                    .sorted(Comparator.comparingInt(Refusal::index))
                    .toList();
            String detail = errors.size() == 1
                    ? errors.get(0).detail()
                    : "all " + errors.size() + " events are outside "
                            + (caller.isBound()
                                    ? "what this token is bound to"
                                    : "this token's namespaces " + caller.namespaces());
            return CompletableFuture.completedFuture(
                    ProblemMappers.problem(403, "forbidden", "Forbidden", detail, errors));
        }
        return submit(ingest, batch);
    }

    /** 400 with every item's error. */
    public static Response unusable(List<Refusal> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).reason() + ": " + errors.get(0).detail()
                : "nothing usable: all " + errors.size() + " items were rejected";
        return ProblemMappers.problem(400, "unusable-connector-input", "Nothing usable in the input", detail, errors);
    }

    /** Refuses a request to a connector that is switched off. */
    public static void requireEnabled(boolean enabled, String what) {
        if (!enabled) {
            throw new NotFoundException(what + " is switched off (see docs/connectors.md)");
        }
    }
}
